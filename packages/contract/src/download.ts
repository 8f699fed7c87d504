import { z } from 'zod';
import { defineEndpoint, type FileResponse, type RedirectResponse } from './endpoint';
import { multilineText, plainText, requiredString } from './fields';
import { LIMITS } from './limits';
import { documentMessages, fmt } from './messages';

/** Spec 3 §7: the downloads live at {external}/api/download/*, outside /api/v1. */
export const DOWNLOAD_BASE = '/api';

/** The client platforms of spec 3 §9. */
export const CLIENT_PLATFORMS = ['windows', 'macos', 'android', 'ios', 'linux'] as const;
export type ClientPlatform = (typeof CLIENT_PLATFORMS)[number];
/** The Linux client comes as a command-line program or with a graphical panel (spec 3 §2). */
export const LINUX_PANELS = ['cli', 'gui'] as const;
export type LinuxPanel = (typeof LINUX_PANELS)[number];
/** The Linux client's platforms (processor architectures). */
export const LINUX_ARCHS = ['amd64', 'arm64', 'armv7', 'loong64'] as const;
export type LinuxArch = (typeof LINUX_ARCHS)[number];

/** One published release as the download page shows it. */
export const releaseItem = z.object({
  version: z.string(),
  notes: z.string(),
  /** When it was published, yyyy-MM-dd HH:mm:ss. */
  create_time: z.string(),
  /** 'file': served by HubLink, `size` bytes; 'url': the download call sends the browser elsewhere (an app store). */
  source: z.enum(['file', 'url']),
  size: z.number().nullable(),
});
export type ReleaseItem = z.infer<typeof releaseItem>;

/** A Linux release: for one panel and one platform. */
export const linuxReleaseItem = releaseItem.extend({ panel: z.enum(LINUX_PANELS), platform: z.enum(LINUX_ARCHS) });
export type LinuxReleaseItem = z.infer<typeof linuxReleaseItem>;

/**
 * GET /api/download/version: the newest release of each platform (null when there is none) and, in
 * `linux`, the newest of each panel and platform (spec 3 §3 "data.linux with versions by panel and platform").
 */
export const downloadVersion = defineEndpoint({
  path: '/download/version',
  base: DOWNLOAD_BASE,
  method: 'GET',
  access: 'public',
  response: z.object({
    windows: releaseItem.nullable(),
    macos: releaseItem.nullable(),
    android: releaseItem.nullable(),
    ios: releaseItem.nullable(),
    linux: z.array(linuxReleaseItem),
  }),
});

/** A download answers the newest package itself, or a 302 to where it is published; 204 when there is none. */
const releaseFile: FileResponse & RedirectResponse = { file: 'application/octet-stream', redirect: 'the address the release was published with' };

const platformDownload = <const P extends Exclude<ClientPlatform, 'linux'>>(platform: P) =>
  defineEndpoint({ path: `/download/${platform}`, base: DOWNLOAD_BASE, method: 'GET', access: 'public', response: releaseFile });

export const downloadWindows = platformDownload('windows');
export const downloadMacos = platformDownload('macos');
export const downloadAndroid = platformDownload('android');
export const downloadIos = platformDownload('ios');

/** GET /api/download/linux?panel&platform: the newest package of that panel and platform. */
export const downloadLinux = defineEndpoint({
  path: '/download/linux',
  base: DOWNLOAD_BASE,
  method: 'GET',
  access: 'public',
  query: z.object({
    panel: z.enum(LINUX_PANELS, { error: documentMessages.downloadPanelRequired }),
    platform: z.enum(LINUX_ARCHS, { error: documentMessages.downloadPlatformRequired }),
  }),
  response: releaseFile,
});

/** The download call of each platform, for links. */
export const DOWNLOADS = {
  windows: downloadWindows,
  macos: downloadMacos,
  android: downloadAndroid,
  ios: downloadIos,
  linux: downloadLinux,
} as const;

const RELEASE_VERSION = /^[0-9A-Za-z][0-9A-Za-z.+_-]*$/;
const RELEASE_FILE_NAME = /^[0-9A-Za-z][0-9A-Za-z.+_-]*$/;

const isWebUrl = (value: string) => {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '' && !url.username && !url.password;
  } catch {
    return false;
  }
};

/**
 * What the operator publishes (`hublink ops`, publishRelease of the download module): a platform (for
 * Linux also its panel and architecture), a version, notes, and either a package file or a link.
 */
export const publishReleaseInput = z
  .object({
    platform: z.enum(CLIENT_PLATFORMS, { error: documentMessages.releasePlatformInvalid }),
    panel: z.enum(LINUX_PANELS, { error: documentMessages.releasePanelRequired }).optional(),
    arch: z.enum(LINUX_ARCHS, { error: documentMessages.releaseArchRequired }).optional(),
    version: requiredString(documentMessages.releaseVersionRequired)
      .max(LIMITS.releaseVersionMax, fmt(documentMessages.releaseVersionInvalid, { n: LIMITS.releaseVersionMax }))
      .regex(RELEASE_VERSION, fmt(documentMessages.releaseVersionInvalid, { n: LIMITS.releaseVersionMax })),
    notes: multilineText(documentMessages.releaseNotesTooLong)
      .max(LIMITS.releaseNotesMax, fmt(documentMessages.releaseNotesTooLong, { n: LIMITS.releaseNotesMax }))
      .default(''),
    url: plainText(fmt(documentMessages.releaseUrlInvalid, { n: LIMITS.releaseUrlMax }))
      .max(LIMITS.releaseUrlMax, fmt(documentMessages.releaseUrlInvalid, { n: LIMITS.releaseUrlMax }))
      .refine(isWebUrl, fmt(documentMessages.releaseUrlInvalid, { n: LIMITS.releaseUrlMax }))
      .optional(),
    /** The package's name as a browser saves it; the bytes come beside the input. */
    file_name: plainText(fmt(documentMessages.releaseFileNameInvalid, { n: LIMITS.releaseFileNameMax }))
      .max(LIMITS.releaseFileNameMax, fmt(documentMessages.releaseFileNameInvalid, { n: LIMITS.releaseFileNameMax }))
      .regex(RELEASE_FILE_NAME, fmt(documentMessages.releaseFileNameInvalid, { n: LIMITS.releaseFileNameMax }))
      .optional(),
  })
  .superRefine((v, ctx) => {
    if (v.platform === 'linux') {
      if (!v.panel) ctx.addIssue({ code: 'custom', path: ['panel'], message: documentMessages.releasePanelRequired });
      else if (!v.arch) ctx.addIssue({ code: 'custom', path: ['arch'], message: documentMessages.releaseArchRequired });
    } else if (v.panel || v.arch) {
      ctx.addIssue({ code: 'custom', path: ['panel'], message: documentMessages.releaseLinuxOnly });
    }
    if ((v.url === undefined) === (v.file_name === undefined)) ctx.addIssue({ code: 'custom', path: ['url'], message: documentMessages.releaseSourceRequired });
  });
export type PublishReleaseInput = z.input<typeof publishReleaseInput>;

/** A release as the operator lists it (listReleases of the download module). */
export interface ReleaseRecord {
  id: number;
  platform: ClientPlatform;
  panel: LinuxPanel | null;
  arch: LinuxArch | null;
  version: string;
  notes: string;
  file_name: string | null;
  size: number | null;
  url: string | null;
  create_time: string;
}
