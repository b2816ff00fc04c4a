// upload.js: a file field's file goes to the tus endpoint (create, then PATCH from the acknowledged offset), shows its
// progress, resumes after a dropped connection from the server's offset, cancels, and shows a refusal at the field.
import { test } from "node:test";
import assert from "node:assert/strict";
import { CHUNK_SIZE, createUploads, encodeMetadata } from "../../Sources/Screenplay/Client/upload.js";
import { applyPatch } from "../../Sources/Screenplay/Client/patch.js";
import { fakeTimers, page, settle } from "./support.js";

const FIELD = (progress = '<progress id="v9-progress" value="0" max="1" hidden></progress>') =>
  '<div id="v9" class="field"><label for="v9-control">Poster</label><input id="v9-control" name="poster" ' +
  'type="file" data-upload-url="/uploads" data-upload-screen="S1" data-upload-screen-key="screen" ' +
  `data-upload-csrf-key="csrf">${progress}<p class="file-status" id="v9-status" role="status"></p>` +
  '<button type="button" class="file-cancel" data-upload-cancel hidden>Cancel</button>' +
  '<button type="button" class="file-retry" data-upload-retry hidden>Retry</button></div>';

// A request function a test answers: every call is kept with a way to answer it.
function fakeRequest() {
  const calls = [];
  const request = (options) => new Promise((resolve) => {
    calls.push({ options, answer: (status, headers = {}, text = "") =>
      resolve({ status, header: (name) => headers[name] ?? null, text }) });
  });
  request.calls = calls;
  request.last = () => calls[calls.length - 1];
  return request;
}

function withUpload(size = 2.5 * CHUNK_SIZE, type = "image/png") {
  const doc = page(`<form>${FIELD()}</form>`, 'data-screen="S1" data-csrf="T1"');
  const request = fakeRequest(), timers = fakeTimers();
  const uploads = createUploads({ doc, request, timers, csrf: () => "T1", createURL: () => "blob:preview" });
  const input = doc.getElementById("v9-control");
  const file = new doc.defaultView.File([new Uint8Array(size)], "poster.png", { type });
  Object.defineProperty(input, "files", { value: [file], configurable: true });
  const progress = () => doc.getElementById("v9-progress");
  return { doc, request, timers, uploads, input, file, progress };
}

test("metadata is key and base64 of the UTF-8 value, comma-separated", () => {
  assert.equal(encodeMetadata({ filename: "é.png", field: "poster" }), "filename w6kucG5n,field cG9zdGVy");
});

test("choosing a file creates the upload with its metadata, then PATCHes chunks from the acknowledged offset", async () => {
  const u = withUpload();
  u.uploads.choose(u.input);
  const create = u.request.last().options;
  assert.equal(create.method, "POST");
  assert.equal(create.url, "/uploads");
  assert.equal(create.headers["Tus-Resumable"], "1.0.0");
  assert.equal(create.headers["Upload-Length"], String(u.file.size));
  assert.equal(create.headers["Upload-Metadata"],
    encodeMetadata({ field: "poster", filename: "poster.png", filetype: "image/png", screen: "S1", csrf: "T1" }));
  // The image is previewed before it is sent.
  assert.equal(u.doc.querySelector("img.file-preview").getAttribute("src"), "blob:preview");
  u.request.last().answer(201, { Location: "/uploads/abc" });
  await settle();
  let patch = u.request.last().options;
  assert.equal(patch.method, "PATCH");
  assert.equal(patch.url, "http://example.test/uploads/abc");
  assert.equal(patch.headers["Upload-Offset"], "0");
  assert.equal(patch.headers["Content-Type"], "application/offset+octet-stream");
  assert.equal(patch.body.size, CHUNK_SIZE);
  // Progress moves as the bytes go, before the answer.
  patch.onProgress(1000);
  assert.equal(u.progress().getAttribute("value"), "1000");
  assert.equal(u.progress().getAttribute("aria-valuenow"), "1000");
  assert.equal(u.progress().getAttribute("max"), String(u.file.size));
  assert.equal(u.progress().hidden, false);
  assert.equal(u.doc.querySelector("[data-upload-cancel]").hidden, false);
  u.request.last().answer(204, { "Upload-Offset": String(CHUNK_SIZE) });
  await settle();
  patch = u.request.last().options;
  assert.equal(patch.headers["Upload-Offset"], String(CHUNK_SIZE));
  u.request.last().answer(204, { "Upload-Offset": String(2 * CHUNK_SIZE) });
  await settle();
  assert.equal(u.request.last().options.body.size, u.file.size - 2 * CHUNK_SIZE);
  u.request.last().answer(204, { "Upload-Offset": String(u.file.size) });
  await settle();
  assert.equal(u.request.calls.length, 4);
  assert.equal(u.uploads.state("v9-control").state, "done");
  assert.equal(u.doc.getElementById("v9-status").textContent, "Sent poster.png.");
  assert.equal(u.doc.querySelector("[data-upload-cancel]").hidden, true);
});

test("a dropped connection is retried with a HEAD and goes on from the server's offset, never from zero", async () => {
  const u = withUpload();
  u.uploads.choose(u.input);
  u.request.last().answer(201, { Location: "/uploads/abc" });
  await settle();
  u.request.last().options.onProgress(CHUNK_SIZE / 2);
  u.request.last().answer(0);
  await settle();
  assert.equal(u.uploads.state("v9-control").state, "waiting");
  assert.match(u.doc.getElementById("v9-status").textContent, /resuming/);
  assert.deepEqual(u.timers.delays, [250]);
  u.timers.advance(250);
  // The server restarted: its HEAD fails at first, then tells the acknowledged offset.
  assert.equal(u.request.last().options.method, "HEAD");
  u.request.last().answer(0);
  await settle();
  u.timers.advance(500);
  assert.equal(u.request.last().options.method, "HEAD");
  u.request.last().answer(200, { "Upload-Offset": "300000" });
  await settle();
  const patch = u.request.last().options;
  assert.equal(patch.method, "PATCH");
  assert.equal(patch.headers["Upload-Offset"], "300000");
  assert.equal(patch.body.size, CHUNK_SIZE);
  assert.equal(u.request.calls.filter((call) => call.options.method === "POST").length, 1);
});

test("after every retry fails the field offers Retry, which resumes at once", async () => {
  const u = withUpload();
  u.uploads.choose(u.input);
  u.request.last().answer(201, { Location: "/uploads/abc" });
  await settle();
  u.request.last().answer(503);
  await settle();
  for (let i = 0; i < 10; i++) {
    u.timers.runAll();
    u.request.last().answer(0);
    await settle();
  }
  assert.equal(u.uploads.state("v9-control").state, "stalled");
  assert.equal(u.doc.querySelector("[data-upload-retry]").hidden, false);
  u.uploads.click(u.doc.querySelector("[data-upload-retry]"));
  assert.equal(u.request.last().options.method, "HEAD");
  u.request.last().answer(200, { "Upload-Offset": "0" });
  await settle();
  assert.equal(u.request.last().options.method, "PATCH");
  assert.equal(u.doc.querySelector("[data-upload-retry]").hidden, true);
});

test("a refused file shows the server's message at the field, as field errors are rendered", async () => {
  const u = withUpload(100, "image/gif");
  u.uploads.choose(u.input);
  u.request.last().answer(201, { Location: "/uploads/abc" });
  await settle();
  u.request.last().answer(415, {}, "<!DOCTYPE html><html><body><h1>415</h1><p>Choose a PNG file; cat.gif is " +
    "not one.</p></body></html>");
  await settle();
  assert.equal(u.input.getAttribute("aria-invalid"), "true");
  const error = u.doc.getElementById(u.input.getAttribute("aria-describedby"));
  assert.equal(error.textContent, "Choose a PNG file; cat.gif is not one.");
  assert.equal(error.className, "field-error");
  assert.equal(u.progress().hidden, true);
  assert.equal(u.doc.querySelector("img.file-preview"), null);
});

test("cancel stops the request in flight and terminates the upload", async () => {
  const u = withUpload();
  u.uploads.choose(u.input);
  u.request.last().answer(201, { Location: "/uploads/abc" });
  await settle();
  let aborted = false;
  u.request.last().options.abort = () => { aborted = true; };
  u.uploads.click(u.doc.querySelector("[data-upload-cancel]"));
  assert.equal(aborted, true);
  const terminate = u.request.last().options;
  assert.equal(terminate.method, "DELETE");
  assert.equal(terminate.url, "http://example.test/uploads/abc");
  assert.equal(u.doc.getElementById("v9-status").textContent, "Cancelled.");
});

test("a patch re-rendering the field keeps the chosen input, the preview and progress never behind", async () => {
  const u = withUpload();
  u.uploads.choose(u.input);
  u.request.last().answer(201, { Location: "/uploads/abc" });
  await settle();
  u.request.last().options.onProgress(5000);
  applyPatch(u.doc, [["replace", "v9", FIELD('<progress id="v9-progress" value="3000" max="9" aria-valuenow="3000">' +
    "</progress>")]]);
  assert.equal(u.doc.getElementById("v9-control"), u.input);
  u.uploads.refresh();
  assert.equal(u.progress().getAttribute("value"), "5000");
  assert.equal(u.doc.querySelector("img.file-preview").getAttribute("src"), "blob:preview");
});
