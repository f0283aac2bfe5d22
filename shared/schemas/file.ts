import { z } from 'zod';
import { entities } from './entities';

/** The success body of a call that answers a file (`download` in its declaration): the file itself. */
export const FileBody = z.unknown().describe('The file, streamed as an attachment');
entities.add(FileBody, { id: 'FileBody' });
