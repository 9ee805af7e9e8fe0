// Saving what the page made (a record, a picture) as a file the browser downloads.

/** Offers `blob` as a download named `name`. */
export function saveFile(blob, name) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  // The download has started by then; the URL only holds the blob in memory.
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}
