// Sends the files chosen in a file field's input to the page's tus 1.0.0 endpoint, resumably: POST /uploads
// (Upload-Length, Upload-Metadata with field, filename, filetype, the screen's id and the page's CSRF token, under the
// keys the input names) answered 201 with a Location, then PATCHes of CHUNK_SIZE bytes from the offset the server
// acknowledged. A dropped connection or a restarted server is retried with a HEAD, which tells where to go on from
// (never from zero). Progress shows on the field's <progress> as the bytes go (XMLHttpRequest's upload progress, a
// few times a second), an image is previewed before it is sent, Cancel terminates, Retry resumes a stalled upload.
// A refused file (403, 413, 415) shows its message at the field as field errors are rendered (aria-invalid,
// aria-describedby naming a visible message). The server tells the screen the same through the field's rx.file.
import { ATTRIBUTES } from "./wire.js";

export const TUS_VERSION = "1.0.0";
export const CHUNK_SIZE = 1 << 20;
// The waits between attempts after a failure; past the last, the field offers Retry (and `online` resumes).
export const RETRY_DELAYS_MS = Object.freeze([250, 500, 1000, 2000, 3000, 5000, 5000, 5000, 5000, 5000]);

// `Upload-Metadata`: `key base64(utf8(value))` pairs, comma-separated.
export function encodeMetadata(pairs) {
  return Object.entries(pairs).map(([key, value]) => {
    const bytes = new TextEncoder().encode(String(value));
    let binary = "";
    for (const byte of bytes) binary += String.fromCharCode(byte);
    return key + " " + btoa(binary);
  }).join(",");
}

// A request over XMLHttpRequest (the browser's network log sees it; its upload reports progress): answers a promise
// of { status, header(name), text }, status 0 when the connection failed. `options.abort` is set to cancel it.
export function xhrRequest(win) {
  return (options) => new Promise((resolve) => {
    const xhr = new win.XMLHttpRequest();
    xhr.open(options.method, options.url);
    for (const [name, value] of Object.entries(options.headers || {})) xhr.setRequestHeader(name, value);
    if (options.onProgress && xhr.upload) xhr.upload.onprogress = (event) => options.onProgress(event.loaded);
    const failed = () => resolve({ status: 0, header: () => null, text: "" });
    xhr.onload = () => resolve({ status: xhr.status, header: (name) => xhr.getResponseHeader(name),
      text: xhr.responseText || "" });
    xhr.onerror = failed;
    xhr.onabort = failed;
    xhr.ontimeout = failed;
    options.abort = () => xhr.abort();
    xhr.send(options.body === undefined ? null : options.body);
  });
}

// The message of an error page (`<p>` of the server's error body), or `fallback`.
function messageOf(doc, text, fallback) {
  const template = doc.createElement("template");
  template.innerHTML = text || "";
  const paragraph = template.content.querySelector("p");
  return (paragraph && paragraph.textContent.trim()) || fallback;
}

// `doc` the page; `request` sends (xhrRequest by default); `timers` schedules; `csrf()` the page's token;
// `createURL(file)` makes a preview's address (URL.createObjectURL).
export function createUploads({ doc, request, timers = globalThis, csrf, createURL = null }) {
  const send = request || xhrRequest(doc.defaultView);
  const makeURL = createURL || ((file) => doc.defaultView.URL.createObjectURL(file));
  // Per input id: { file, location, offset, sent, state: "sending"|"waiting"|"stalled"|"done"|"failed"|"cancelled",
  // message, attempt, pending (the request in flight), preview }.
  const uploads = {};

  const isUploadInput = (node) => !!node && node.tagName === "INPUT" && node.type === "file" &&
    node.hasAttribute(ATTRIBUTES.uploadURL);

  // The parts of the field `input` belongs to, found afresh (a patch may have replaced them).
  function partsOf(id) {
    const input = doc.getElementById(id);
    const wrapper = input && input.closest(".field");
    if (!wrapper) return null;
    return {
      input, wrapper,
      progress: wrapper.querySelector("progress"),
      status: wrapper.querySelector(".file-status"),
      cancel: wrapper.querySelector("[data-upload-cancel]"),
      retry: wrapper.querySelector("[data-upload-retry]"),
    };
  }

  // Shows `upload`'s state on its field: progress (never behind what the page shows), status, buttons, preview,
  // error.
  function show(id) {
    const upload = uploads[id], parts = partsOf(id);
    if (!upload || !parts) return;
    const { input, wrapper, progress, status, cancel, retry } = parts;
    if (progress) {
      const shown = parseInt(progress.getAttribute("value"), 10) || 0;
      const value = Math.max(upload.sent, upload.state === "done" ? upload.file.size : 0);
      if (upload.state === "failed" || upload.state === "cancelled") {
        progress.hidden = true;
      } else if (value >= shown || progress.hidden) {
        progress.hidden = false;
        progress.setAttribute("max", String(Math.max(upload.file.size, 1)));
        progress.setAttribute("value", String(value));
        progress.setAttribute("aria-valuenow", String(value));
      }
    }
    if (status) {
      const percent = upload.file.size ? Math.floor((100 * upload.sent) / upload.file.size) : 100;
      const text = {
        sending: `Sending ${upload.file.name}… ${percent}%`,
        waiting: `Connection lost at ${percent}%; resuming…`,
        stalled: `Sending ${upload.file.name} stopped at ${percent}%.`,
        done: `Sent ${upload.file.name}.`,
        cancelled: "Cancelled.",
        failed: "",
      }[upload.state];
      if (status.textContent !== text) status.textContent = text;
    }
    if (cancel) cancel.hidden = !["sending", "waiting", "stalled"].includes(upload.state);
    if (retry) retry.hidden = upload.state !== "stalled";
    showPreview(wrapper, upload, progress);
    showError(input, wrapper, upload.state === "failed" ? upload.message : null);
  }

  function showPreview(wrapper, upload, progress) {
    let image = wrapper.querySelector("img.file-preview");
    const wanted = upload.preview && upload.state !== "failed" && upload.state !== "cancelled";
    if (!wanted) { if (image) image.remove(); return; }
    if (!image) {
      image = doc.createElement("img");
      image.className = "file-preview";
      image.alt = "Preview of " + upload.file.name;
      wrapper.insertBefore(image, progress || null);
    }
    if (image.getAttribute("src") !== upload.preview) image.setAttribute("src", upload.preview);
  }

  // As the server renders a field's error: aria-invalid, aria-describedby naming `<p id="{wrapper}-error">`.
  function showError(input, wrapper, message) {
    const errorID = wrapper.id + "-error";
    let paragraph = doc.getElementById(errorID);
    if (!message) {
      if (paragraph && paragraph.hasAttribute("data-upload-error")) {
        paragraph.remove();
        input.removeAttribute("aria-invalid");
        input.removeAttribute("aria-describedby");
        wrapper.classList.remove("field-invalid");
      }
      return;
    }
    if (!paragraph) {
      paragraph = doc.createElement("p");
      paragraph.id = errorID;
      paragraph.className = "field-error";
      paragraph.setAttribute("data-upload-error", "");
      wrapper.appendChild(paragraph);
    }
    if (paragraph.textContent !== message) paragraph.textContent = message;
    input.setAttribute("aria-invalid", "true");
    input.setAttribute("aria-describedby", errorID);
    wrapper.classList.add("field-invalid");
  }

  function fail(id, message) {
    const upload = uploads[id];
    upload.state = "failed";
    upload.message = message;
    show(id);
  }

  // The user chose a file: a new upload (an older one of the field still running is cancelled).
  function choose(input) {
    if (!isUploadInput(input) || !input.id) return null;
    const file = input.files && input.files[0];
    const old = uploads[input.id];
    if (old) cancel(input.id, false);
    if (!file) return null;
    const upload = uploads[input.id] = { file, location: null, offset: 0, sent: 0, state: "sending", message: null,
      attempt: 0, pending: null, preview: null, endpoint: input.getAttribute(ATTRIBUTES.uploadURL), input };
    if (/^image\//.test(file.type)) {
      try { upload.preview = makeURL(file); } catch (error) { upload.preview = null; }
    }
    show(input.id);
    return create(input.id, upload);
  }

  function create(id, upload) {
    const input = upload.input;
    const metadata = {
      field: input.name, filename: upload.file.name, filetype: upload.file.type || "application/octet-stream",
      [input.getAttribute(ATTRIBUTES.uploadScreenKey) || "screen"]: input.getAttribute(ATTRIBUTES.uploadScreen) ||
        doc.documentElement.getAttribute(ATTRIBUTES.screen) || "",
      [input.getAttribute(ATTRIBUTES.uploadCSRFKey) || "csrf"]: csrf(),
    };
    const options = { method: "POST", url: upload.endpoint, headers: { "Tus-Resumable": TUS_VERSION,
      "Upload-Length": String(upload.file.size), "Upload-Metadata": encodeMetadata(metadata) } };
    upload.pending = options;
    return send(options).then((answer) => {
      if (uploads[id] !== upload || upload.state === "cancelled") return;
      upload.pending = null;
      if (answer.status === 201 && answer.header("Location")) {
        upload.location = new URL(answer.header("Location"), doc.baseURI).href;
        upload.attempt = 0;
        return patch(id, upload);
      }
      if (answer.status === 0 || answer.status >= 500) return retryLater(id, upload, () => create(id, upload));
      fail(id, messageOf(doc, answer.text, `The upload was refused (${answer.status}).`));
    });
  }

  function patch(id, upload) {
    if (upload.offset >= upload.file.size) { upload.state = "done"; upload.sent = upload.file.size; show(id); return; }
    const start = upload.offset, end = Math.min(upload.file.size, start + CHUNK_SIZE);
    upload.state = "sending";
    const options = { method: "PATCH", url: upload.location, body: upload.file.slice(start, end),
      headers: { "Tus-Resumable": TUS_VERSION, "Upload-Offset": String(start),
        "Content-Type": "application/offset+octet-stream" },
      onProgress: (loaded) => {
        if (uploads[id] !== upload || upload.state !== "sending") return;
        upload.sent = Math.max(upload.sent, start + loaded);
        show(id);
      } };
    upload.pending = options;
    return send(options).then((answer) => {
      if (uploads[id] !== upload || upload.state === "cancelled") return;
      upload.pending = null;
      const offset = parseInt(answer.header("Upload-Offset"), 10);
      if (answer.status === 204 && offset >= 0) {
        upload.offset = offset;
        upload.sent = offset;
        upload.attempt = 0;
        show(id);
        return patch(id, upload);
      }
      if (answer.status === 0 || answer.status === 409 || answer.status >= 500) {
        return retryLater(id, upload, () => resume(id, upload));
      }
      fail(id, messageOf(doc, answer.text, `The upload was refused (${answer.status}).`));
    });
  }

  // Asks the server where the upload stands, then goes on from there.
  function resume(id, upload) {
    const options = { method: "HEAD", url: upload.location, headers: { "Tus-Resumable": TUS_VERSION } };
    upload.pending = options;
    return send(options).then((answer) => {
      if (uploads[id] !== upload || upload.state === "cancelled") return;
      upload.pending = null;
      const offset = parseInt(answer.header("Upload-Offset"), 10);
      if (answer.status === 200 && offset >= 0) {
        upload.offset = offset;
        upload.sent = offset;
        return patch(id, upload);
      }
      if (answer.status === 0 || answer.status >= 500) return retryLater(id, upload, () => resume(id, upload));
      fail(id, answer.status === 404 ? "The upload expired; choose the file again."
        : messageOf(doc, answer.text, `The upload failed (${answer.status}).`));
    });
  }

  function retryLater(id, upload, again) {
    const delay = RETRY_DELAYS_MS[upload.attempt++];
    upload.again = again;
    if (delay === undefined) { upload.state = "stalled"; show(id); return; }
    upload.state = "waiting";
    show(id);
    upload.timer = timers.setTimeout(() => {
      upload.timer = null;
      if (uploads[id] === upload && upload.state === "waiting") again();
    }, delay);
  }

  // Retry (or the network came back): a stalled or waiting upload goes on from the server's offset at once.
  function retry(id) {
    const upload = uploads[id];
    if (!upload || !["stalled", "waiting"].includes(upload.state) || !upload.again) return null;
    if (upload.timer) { timers.clearTimeout(upload.timer); upload.timer = null; }
    upload.attempt = 0;
    upload.state = "sending";
    show(id);
    return upload.again();
  }

  // Cancel: the request in flight stops and the upload is terminated (DELETE).
  function cancel(id, showIt = true) {
    const upload = uploads[id];
    if (!upload || upload.state === "done" || upload.state === "cancelled") return null;
    upload.state = "cancelled";
    if (upload.timer) { timers.clearTimeout(upload.timer); upload.timer = null; }
    if (upload.pending && upload.pending.abort) upload.pending.abort();
    if (showIt) show(id);
    if (!upload.location) return Promise.resolve();
    return send({ method: "DELETE", url: upload.location, headers: { "Tus-Resumable": TUS_VERSION } })
      .then(() => {});
  }

  // A click on a field's Cancel or Retry.
  function click(target) {
    const button = target && target.closest && target.closest("[data-upload-cancel], [data-upload-retry]");
    const input = button && button.closest(".field") && button.closest(".field").querySelector("input[type=file]");
    if (!input || !uploads[input.id]) return null;
    return button.hasAttribute("data-upload-cancel") ? cancel(input.id) : retry(input.id);
  }

  // After a patch: the fields it re-rendered show their uploads again.
  function refresh() {
    for (const id of Object.keys(uploads)) show(id);
  }

  function online() {
    return Promise.all(Object.keys(uploads).map((id) => retry(id)));
  }

  return { choose, click, cancel, retry, refresh, online, isUploadInput, state: (id) => uploads[id] };
}
