import type { Brand, UserMessage } from '@hublink/contract';

// The signed-in users and brands of tests (not shipped: only tests import it).

export const mainUser: UserMessage = {
  nickname: '小林',
  username: 'lin2024',
  ram: 0,
  user_phone: '+86 13800000000',
  user_email: 'lin@example.com',
  message_count: 3,
  sign: 'abc123',
  config: { software_auth_source: 0 },
  auth: { quagga: 0, quagga_advanced: 0, default_route: 0 },
  role: null,
};

export const ramUser: UserMessage = { ...mainUser, nickname: '小王', username: 'wang@abc123', ram: 1 };

export const ownBrand: Brand = { name: '云联', logo: 'blue', own: true, filing: '京ICP备00000000号' };
export const otherBrand: Brand = { name: '合作伙伴', logo: 'green', own: false, filing: '沪ICP备11111111号' };
