import { type ClientPlatform, documentMessages, type LinuxArch, type LinuxPanel } from '@hublink/contract';

/**
 * The visitor's platform from the browser's user agent, or null when it names none of ours. An iPad
 * asks for the desktop site and says Macintosh; it is told apart by its touch screen.
 */
export function detectPlatform(userAgent: string, touchPoints = 0): ClientPlatform | null {
  if (/iPhone|iPad|iPod/i.test(userAgent)) return 'ios';
  if (/Android/i.test(userAgent)) return 'android';
  if (/Macintosh|Mac OS X/i.test(userAgent)) return touchPoints > 1 ? 'ios' : 'macos';
  if (/Windows/i.test(userAgent)) return 'windows';
  if (/Linux|X11|CrOS/i.test(userAgent)) return 'linux';
  return null;
}

/** The processor a Linux browser names in its user agent, if it names one. */
export function detectArch(userAgent: string): LinuxArch | null {
  if (/aarch64|arm64/i.test(userAgent)) return 'arm64';
  if (/armv7|armv8l/i.test(userAgent)) return 'armv7';
  if (/loongarch|loong64/i.test(userAgent)) return 'loong64';
  if (/x86_64|amd64|x64|Win64/i.test(userAgent)) return 'amd64';
  return null;
}

export const PLATFORM_NAMES: Record<ClientPlatform, string> = {
  windows: documentMessages.platformWindows,
  macos: documentMessages.platformMacos,
  android: documentMessages.platformAndroid,
  ios: documentMessages.platformIos,
  linux: documentMessages.platformLinux,
};

export const PANEL_NAMES: Record<LinuxPanel, string> = { cli: documentMessages.panelCli, gui: documentMessages.panelGui };

export const ARCH_NAMES: Record<LinuxArch, string> = { amd64: documentMessages.archAmd64, arm64: documentMessages.archArm64, armv7: documentMessages.archArmv7, loong64: documentMessages.archLoong64 };

/** A package's size as people read it. */
export function sizeText(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  return `${Math.max(1, Math.round(bytes / 1024))} KB`;
}
