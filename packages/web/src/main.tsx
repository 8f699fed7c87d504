// zod is configured before the contract's schemas are built (they are built as their modules load),
// so the rest of the console loads only after it. The build puts both in the shell chunk and fails if
// the configuration would not run first there (build-plugins/shellChunk.ts).
import './app/zodConfig';
import { reloadOnPreloadError } from './app/reloadForNewVersion';

reloadOnPreloadError();
void import('./app/start');
