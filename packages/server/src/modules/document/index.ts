import { defineModule } from '../../core/module';
import { importWhenEmpty } from './import';
import { documentRoutes } from './routes';

export { importDocuments, type ImportSummary } from './import';
export { HandbookError } from './source';

/** Help documents (spec 3 §2 /handbook): the menu and documents, public; a fresh install imports the handbook. */
export const documentModule = defineModule({ name: 'document', routes: documentRoutes, start: importWhenEmpty });
