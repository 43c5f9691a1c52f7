import { z } from 'zod';
import { defineEndpoint } from './endpoint.ts';
import { objectPaths } from './paths.ts';

/**
 * The local store's upload address (`PUT /api/uploads/<signed token>`), handed out by
 * uploadTargetEndpoint: the client PUTs the raw file there with plain fetch, as it would to a
 * presigned S3 URL, so it is CSRF-exempt; the signed token is the credential. A wildcard, not
 * `:token`: the token is longer than the router's parameter limit.
 */
export const localUploadEndpoint = defineEndpoint({
  method: 'PUT',
  path: `${objectPaths.localUploadPrefix}*`,
  id: 'putLocalUpload',
  summary: "The local store's signed upload address: the raw image file as the body",
  tag: 'uploads',
  access: 'public',
  csrfExempt: true,
  // An upload address handed out just before a suspension.
  refuses: { suspended: true },
  params: z.object({ '*': z.string().max(1024, 'Invalid upload URL') }),
  response: z.object({ size: z.number().int() }),
  errors: {
    400: ['UPLOAD_INTERRUPTED'],
    403: ['UPLOAD_EXPIRED', 'UPLOAD_FORBIDDEN'],
    409: ['UPLOAD_USED'],
    413: ['TOO_LARGE'],
  },
});
