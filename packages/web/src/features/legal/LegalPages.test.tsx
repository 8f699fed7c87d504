import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../test/render';
import ClausePage from './ClausePage';
import PrivacyPage from './PrivacyPage';

describe('legal pages', () => {
  it('the terms of service carry the numbered sections and the constants of spec 1 §9', () => {
    const { container } = renderWithProviders(<ClausePage />, { route: '/clause' });
    expect(screen.getByRole('heading', { level: 1, name: '服务条款' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 4, name: '1. 总则' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 4, name: '8. 账号冻结、注销与申诉' })).toBeInTheDocument();
    const text = container.textContent ?? '';
    for (const fact of ['3年内可免费', '180日内', '18个月', '银行转账', '72小时', '一个月实际支付的服务费用为上限', '至少提前一个月', '3日内', '24小时内', '仲裁', '申诉', '周一至周五9:00-18:00']) {
      expect(text).toContain(fact);
    }
    expect(screen.getByRole('link', { name: '《隐私政策》' })).toHaveAttribute('href', '/privacy');
  });

  it('the privacy policy is dated 2021-03-23 and covers what spec 1 §9 lists', () => {
    const { container } = renderWithProviders(<PrivacyPage />, { route: '/privacy' });
    expect(screen.getByRole('heading', { level: 1, name: '隐私政策' })).toBeInTheDocument();
    expect(screen.getByText(/更新日期：2021年3月23日/)).toBeInTheDocument();
    for (const title of ['我们收集的信息', 'Cookie 与同类技术', '信息的共享、转让与公开披露', '信息的存储与保留', '未成年人保护', '您的权利']) {
      expect(screen.getByRole('heading', { level: 4, name: new RegExp(`^\\d+\\. ${title}$`) })).toBeInTheDocument();
    }
    const text = container.textContent ?? '';
    expect(text).toContain('未满18周岁');
    expect(text).toContain('监护人的同意');
    expect(text).toContain('15日内答复');
  });
});
