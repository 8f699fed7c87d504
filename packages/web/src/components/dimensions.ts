/** Sizes of the console frame (pixels). */
export const FRAME = {
  siderWidth: 220,
  siderCollapsedWidth: 64,
  headerHeight: 56,
  contentPadding: 24,
  phoneContentPadding: 12,
  settingsWidth: 320,
  publicMaxWidth: 1200,
  /** Antd's breakpoint matching LIMITS.mobileBreakpoint (992 px). */
  mobileBreakpoint: 'lg',
} as const;
