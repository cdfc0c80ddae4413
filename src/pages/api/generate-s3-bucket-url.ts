import type { APIRoute } from "astro";
import { z } from "zod";
import { readJson, requireAdmin } from "../../server/http.ts";
import { createImageUpload, UPLOAD_RULES } from "../../domain/catalogue/uploads.ts";
import { getObjectStorage } from "../../integrations/storage/object-storage.ts";

// The accepted image types are a domain rule (it answers with the spec's exact text); zod only
// checks the shape here.
const UploadUrlInput = z.object({
  fileName: z.string().min(1).max(200),
  fileType: z.string().max(100),
});

export const POST: APIRoute = async ({ locals, request }) => {
  requireAdmin(locals);
  const input = await readJson(request, UploadUrlInput);
  const storage = getObjectStorage(locals.app.config, UPLOAD_RULES);
  return Response.json(await createImageUpload(storage, input));
};
