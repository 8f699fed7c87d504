// zod is configured before the contract's schemas are built (they are built as their modules load),
// so the rest of the console loads only after it.
import './app/zodConfig';
import { reloadOnPreloadError } from './app/reloadForNewVersion';

reloadOnPreloadError();
void import('./app/start');
