import { BM } from '@hublink/contract';
import { ApartmentOutlined, CloudServerOutlined, ClusterOutlined, SwapOutlined } from '@ant-design/icons';
import { Flex } from 'antd';
import type { ReactNode } from 'react';

const FEATURES: { icon: ReactNode; title: string; text: string }[] = [
  { icon: <ApartmentOutlined />, title: BM.productBranch, text: BM.productBranchText },
  { icon: <ClusterOutlined />, title: BM.productIot, text: BM.productIotText },
  { icon: <SwapOutlined />, title: BM.productTransfer, text: BM.productTransferText },
  { icon: <CloudServerOutlined />, title: BM.productHybrid, text: BM.productHybridText },
];

/** The product's self-description beside the login form (spec 1 §1). */
export function ProductPanel() {
  return (
    <Flex
      vertical
      justify="center"
      gap={28}
      className="hl-product-panel"
    >
      <div>
        <h2 className="hl-product-headline">{BM.productHeadline}</h2>
        <p className="hl-product-intro">{BM.productIntro}</p>
      </div>
      <Flex vertical gap={20} component="ul" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
        {FEATURES.map((f) => (
          <Flex key={f.title} gap={14} align="flex-start" component="li">
            <span style={{ fontSize: 22, lineHeight: '28px', opacity: 0.95 }}>{f.icon}</span>
            <div>
              <div style={{ fontSize: 16, fontWeight: 600, lineHeight: '28px' }}>{f.title}</div>
              <div style={{ color: 'rgba(255,255,255,0.78)' }}>{f.text}</div>
            </div>
          </Flex>
        ))}
      </Flex>
    </Flex>
  );
}
