import type { Brand } from '@hublink/contract';
import { useId } from 'react';

type Variant = Brand['logo'];

/** Gradient stops of each brand variant (spec 1 §1: four variants plus local). */
const PALETTE: Record<Variant, readonly [string, string]> = {
  default: ['#1677ff', '#4096ff'],
  blue: ['#002c8c', '#1d39c4'],
  green: ['#237804', '#52c41a'],
  orange: ['#d4380d', '#fa8c16'],
  local: ['#1f2937', '#64748b'],
};

interface LogoProps {
  variant: Variant;
  /** Brand name beside the mark; hidden when compact. */
  name: string;
  compact?: boolean;
  /** Height of the mark in pixels. */
  size?: number;
  /** Colour of the name (dark backgrounds pass white). */
  color?: string;
}

/** The brand mark: a hub with three linked sites, in the host's colours, with the brand name. */
export function Logo({ variant, name, compact = false, size = 28, color = 'rgba(0, 0, 0, 0.88)' }: LogoProps) {
  const gradient = useId();
  const [from, to] = PALETTE[variant];
  return (
    <span style={{ display: 'inline-flex', alignItems: 'center', gap: 10, whiteSpace: 'nowrap' }} data-variant={variant}>
      <svg width={size} height={size} viewBox="0 0 32 32" role="img" aria-label={name}>
        <defs>
          <linearGradient id={gradient} x1="0" y1="0" x2="1" y2="1">
            <stop offset="0" stopColor={from} />
            <stop offset="1" stopColor={to} />
          </linearGradient>
        </defs>
        <rect width="32" height="32" rx="8" fill={`url(#${gradient})`} />
        <g stroke="#fff" strokeWidth="2" strokeLinecap="round" opacity="0.85">
          <line x1="16" y1="16" x2="16" y2="7" />
          <line x1="16" y1="16" x2="8" y2="22" />
          <line x1="16" y1="16" x2="24" y2="22" />
        </g>
        <circle cx="16" cy="16" r="4.5" fill="#fff" />
        <g fill="#fff">
          <circle cx="16" cy="7" r="2.5" />
          <circle cx="8" cy="22.5" r="2.5" />
          <circle cx="24" cy="22.5" r="2.5" />
        </g>
      </svg>
      {!compact && (
        <span style={{ fontSize: size * 0.6, fontWeight: 600, letterSpacing: 0.5, color }}>{name}</span>
      )}
    </span>
  );
}
