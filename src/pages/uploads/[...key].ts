import type { APIRoute } from "astro";
import { errorResponse } from "../../server/http.ts";
import { NotFoundError } from "../../domain/errors.ts";
import { contentTypeOfKey, UPLOAD_RULES } from "../../domain/catalogue/uploads.ts";
import { getLocalStorage } from "../../integrations/storage/object-storage.ts";

// The local store's objects: upload URLs from /api/generate-s3-bucket-url are PUT here and the
// stored image URL is read here. The middleware maps errors to JSON only under /api/, so these
// handlers answer their own.

function localStorageOf(locals: App.Locals) {
  const storage = getLocalStorage(locals.app.config, UPLOAD_RULES);
  if (!storage) throw new NotFoundError("Not found");
  return storage;
}

export const PUT: APIRoute = async ({ locals, params, request }) => {
  try {
    await localStorageOf(locals).acceptPut(params.key ?? "", request);
    return new Response(null, { status: 200 });
  } catch (error) {
    return errorResponse(error);
  }
};

export const GET: APIRoute = async ({ locals, params }) => {
  try {
    const key = params.key ?? "";
    const bytes = await localStorageOf(locals).read(key);
    if (!bytes) throw new NotFoundError("Not found");
    return new Response(bytes, {
      headers: {
        // read() only finds well-formed upload keys, and each one ends in its type's extension.
        "Content-Type": contentTypeOfKey(key)!,
        // Keys are never reused (a UUID each, written once), so the bytes behind a URL never change.
        "Cache-Control": "public, max-age=31536000, immutable",
        "X-Content-Type-Options": "nosniff",
      },
    });
  } catch (error) {
    return errorResponse(error);
  }
};
