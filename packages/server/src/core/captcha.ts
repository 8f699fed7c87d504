import { randomUUID } from 'node:crypto';
import svgCaptcha from 'svg-captcha';
import { LIMITS } from '@hublink/contract';
import type { KvStore } from './store';

/** Image captchas: single use, expire after 5 minutes, compared case-insensitively. */
export class CaptchaService {
  constructor(private readonly store: KvStore) {}

  async create(): Promise<{ content: string; uniqid: string }> {
    const c = svgCaptcha.create({
      size: LIMITS.captchaLength,
      ignoreChars: '0oO1iIlL',
      noise: 2,
      color: true,
      background: '#f0f4ff',
      width: 120,
      height: 40,
    });
    const uniqid = randomUUID();
    await this.store.set(`captcha:${uniqid}`, c.text.toLowerCase(), LIMITS.captchaTtlSeconds);
    return { content: `data:image/svg+xml;base64,${Buffer.from(c.data).toString('base64')}`, uniqid };
  }

  /** Checks and burns the captcha: any answer, right or wrong, uses it up. */
  async consume(uniqid: string, answer: string): Promise<boolean> {
    const text = await this.store.take(`captcha:${uniqid}`);
    return text !== null && text === answer.trim().toLowerCase();
  }

  /** The answer, for the development endpoint only. */
  async peek(uniqid: string): Promise<string | null> {
    return this.store.get(`captcha:${uniqid}`);
  }
}
