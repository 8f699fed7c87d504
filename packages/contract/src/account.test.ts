import { describe, expect, it } from 'vitest';
import { birthdayField, editDataBody, INDUSTRIES, latestBirthday, mobileError } from './account';
import { M } from './messages';

describe('account contract', () => {
  it('lists the 23 industries of spec 1 §3, I23 absent', () => {
    const codes = INDUSTRIES.map((i) => i.value);
    expect(codes).toHaveLength(23);
    expect(codes).not.toContain('I23');
    expect(codes).toContain('I24');
    expect(editDataBody.shape.industry.safeParse('I23').success).toBe(false);
  });

  it('takes a birthday up to the latest allowed day and no later', () => {
    const DAY = 86_400_000;
    const now = Date.UTC(2026, 0, 31);
    expect(latestBirthday(now)).toBe(new Date(now - 100 * DAY).toISOString().slice(0, 10));
    expect(birthdayField.safeParse(latestBirthday()).success).toBe(true);
    const dayAfter = new Date(Date.parse(`${latestBirthday()}T00:00:00Z`) + DAY).toISOString().slice(0, 10);
    expect(birthdayField.safeParse(dayAfter).success).toBe(false);
  });

  it('checks mainland and other mobiles', () => {
    expect(mobileError('86', '13800000000')).toBeNull();
    expect(mobileError('86', '19800000000')).toBe(M.mobileInvalid);
    expect(mobileError('86', '')).toBe(M.phoneRequired);
    expect(mobileError('852', '12345678')).toBeNull();
    expect(mobileError('852', '123')).toBe(M.mobileInvalid);
    expect(mobileError('x', '13800000000')).toBe(M.areaCodeInvalid);
  });
});
