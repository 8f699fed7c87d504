import { ApartmentOutlined, CloudServerOutlined, ClusterOutlined, SwapOutlined } from '@ant-design/icons';
import { Flex, Typography } from 'antd';
import type { ReactNode } from 'react';

const FEATURES: { icon: ReactNode; title: string; text: string }[] = [
  { icon: <ApartmentOutlined />, title: '分支互联', text: '总部、门店与分支机构快速组网，配置集中下发，分钟级开通。' },
  { icon: <ClusterOutlined />, title: '工业与物联网', text: 'PLC、网关、传感器等工业及物联网设备安全接入，远程运维无需公网IP。' },
  { icon: <SwapOutlined />, title: '跨区域文件传输', text: '跨地域、跨运营商的加密传输通道，大文件传输稳定高效。' },
  { icon: <CloudServerOutlined />, title: '混合云', text: '打通本地数据中心与公有云、私有云，构建统一的混合云网络。' },
];

/** The product's self-description beside the login form (spec 1 §1). */
export function ProductPanel() {
  return (
    <Flex
      vertical
      justify="center"
      gap={28}
      style={{
        height: '100%',
        padding: '48px 44px',
        color: '#fff',
        background: 'linear-gradient(135deg, #0b3d91 0%, #1668dc 55%, #13a8a8 100%)',
      }}
    >
      <div>
        <Typography.Title level={2} style={{ color: '#fff', margin: 0 }}>
          新一代智能组网解决方案
        </Typography.Title>
        <Typography.Paragraph style={{ color: 'rgba(255,255,255,0.85)', marginTop: 12, marginBottom: 0, fontSize: 15 }}>
          以软件定义的方式连接分支、设备与云，让企业网络简单、安全、可管可控。
        </Typography.Paragraph>
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
