import { z } from 'zod';

/** The success body of a call that answers a file (`download` in its declaration): the file itself. */
export const FileBody = z.unknown().describe('The file, streamed as an attachment');
