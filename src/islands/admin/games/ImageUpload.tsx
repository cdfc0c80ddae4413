// The game image field: uploads through a presigned URL and previews the stored image (spec §7).
import { useEffect, useState } from "react";
import { callApi } from "../../lib/api.ts";

export interface ImageUploadProps {
  /** The visible label of the file picker. */
  label: string;
  /** The stored image URL, or "" when there is none. */
  value: string;
  /** Called with the new stored image URL after a successful upload. */
  onChange: (url: string) => void;
}

/** Puts the file in storage and returns its URL: the presigned URL without its query string. */
async function uploadImage(file: File): Promise<string> {
  const { presignedUrl } = await callApi<{ presignedUrl: string }>(
    "POST",
    "/api/generate-s3-bucket-url",
    { fileName: file.name, fileType: file.type },
  );
  const response = await fetch(presignedUrl, {
    method: "PUT",
    headers: { "Content-Type": file.type },
    body: file,
  });
  if (!response.ok) throw new Error(`Upload answered HTTP ${response.status}`);
  return presignedUrl.split("?")[0];
}

export function ImageUpload({ label, value, onChange }: ImageUploadProps) {
  const [uploading, setUploading] = useState(false);
  const [error, setError] = useState("");
  const [loadFailed, setLoadFailed] = useState(false);
  useEffect(() => setLoadFailed(false), [value]);

  const pick = async (file: File | undefined) => {
    setError("");
    if (!file) return setError("No file selected");
    if (!file.type.startsWith("image/")) return setError("Please select a valid image file");
    setUploading(true);
    try {
      onChange(await uploadImage(file));
    } catch (failure) {
      console.error(failure);
      setError("Failed to upload image");
    } finally {
      setUploading(false);
    }
  };

  return (
    <div class="ag-image">
      <label>
        {label}
        <input
          type="file"
          accept="image/*"
          disabled={uploading}
          onChange={(e) => pick(e.currentTarget.files?.[0])}
        />
      </label>
      {uploading && <p class="muted">Uploading...</p>}
      {error && <p class="error" role="alert">{error}</p>}
      {value && !loadFailed && (
        <img
          class="ag-preview"
          src={value}
          alt={`${label} preview`}
          onError={() => setLoadFailed(true)}
        />
      )}
      {value && loadFailed && <p class="error">Failed to load image</p>}
    </div>
  );
}
