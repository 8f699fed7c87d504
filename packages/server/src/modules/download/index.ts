import { DOWNLOAD_BASE } from '@hublink/contract';
import { defineModule } from '../../core/module';
import { downloadRoutes } from './routes';

export { listReleases, publishRelease, withdrawRelease, type ReleaseInput } from './service';

/** Client downloads (spec 3 §2 /download): the release manifest the operator manages, served at /api/download/*. */
export const downloadModule = defineModule({ name: 'download', prefix: DOWNLOAD_BASE, routes: downloadRoutes });
