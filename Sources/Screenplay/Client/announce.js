// Announces the text of changed regions that opted in (`data-announce`) through the page's live region
// (`data-announcer`, an aria-live element the layout renders).

export function announce(doc, ids) {
  const region = doc.querySelector("[data-announcer]");
  if (!region) return null;
  const texts = [];
  for (const id of ids) {
    const node = doc.getElementById(id);
    if (node && node.closest("[data-announce]")) texts.push(node.textContent.trim());
  }
  if (!texts.length) return null;
  region.textContent = texts.join(" ");
  return region.textContent;
}
