import { BM, LIMITS, type RouterDetail, routerMessages } from '@hublink/contract';
import { Card, Carousel, ConfigProvider, Empty, theme } from 'antd';
import { NetworkSlide } from './NetworkSlide';

/** The networks the member is in, one at a time, turning every LIMITS.carouselMs (spec 3 §2, §9). */
export function NetworkCarousel({ routerName, networks }: { routerName: string; networks: RouterDetail['network'] }) {
  const { token } = theme.useToken();
  return (
    <Card variant="borderless" title={routerMessages.routerNetworksTitle} style={{ height: '100%' }}>
      {networks.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={BM.empty} />
      ) : (
        // The dots take the container's background colour: on a white card they need the primary one.
        <ConfigProvider theme={{ components: { Carousel: { colorBgContainer: token.colorPrimary } } }}>
          <Carousel autoplay autoplaySpeed={LIMITS.carouselMs} dotPlacement="bottom">
            {networks.map((n) => (
              <div key={n.network_number}>
                <NetworkSlide routerName={routerName} network={n} />
              </div>
            ))}
          </Carousel>
        </ConfigProvider>
      )}
    </Card>
  );
}
