import { z } from 'zod';
import { operationsOf } from '../operation.ts';
import { changeRequestId, spaceId } from '../params.ts';
import { PdfQueryShape, PdfUrlSchema } from '../schemas/pdf.ts';

const content = operationsOf('content', { tags: ['content'] });
const cr = operationsOf('content', { tags: ['change-requests'] });

export const getSpacePDF = content({
  id: 'pdf.export',
  input: z.object({ spaceId, ...PdfQueryShape }),
  output: PdfUrlSchema,
  http: {
    route: 'GET /spaces/{spaceId}/pdf',
    operationId: 'getSpacePDF',
    summary:
      'Get a temporary URL (valid for 1 hour) to download the content of a space, or of one of its pages, as PDF',
  },
});

export const getChangeRequestPDF = cr({
  id: 'pdf.exportChangeRequest',
  input: z.object({ spaceId, changeRequestId, ...PdfQueryShape }),
  output: PdfUrlSchema,
  http: {
    route: 'GET /spaces/{spaceId}/change-requests/{changeRequestId}/pdf',
    operationId: 'getChangeRequestPDF',
    summary:
      "Get a temporary URL (valid for 1 hour) to download a change request's content, or one of its pages, as PDF",
  },
});
