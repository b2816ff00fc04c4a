// Collection views (CollectionView, data-collection): the arrow keys move between cells by where they are on the
// screen. Left and Right go to the cell before and after (in the order the page has them, which is the order of the
// lines), Up and Down to the cell of the line above or below whose centre is nearest across. A cell is one of the
// collection's children that is not a windowed grid's spacer; focus goes to its first focusable element, or to the
// cell itself. Keys typed into a field are the field's.
const FOCUSABLE = "a[href], button, input, select, textarea, [tabindex]";

function cells(collection) {
  return Array.from(collection.children).filter((child) => !child.hasAttribute("data-spacer") && !child.hidden);
}

function centre(rect) {
  return { x: (rect.left + rect.right) / 2, y: (rect.top + rect.bottom) / 2 };
}

// The cell the arrow `key` leads to from `cell` in `collection`, or null at an edge.
export function neighbour(collection, cell, key) {
  const all = cells(collection), index = all.indexOf(cell);
  if (index < 0) return null;
  if (key === "ArrowLeft" || key === "ArrowRight") {
    return all[index + (key === "ArrowLeft" ? -1 : 1)] || null;
  }
  if (key !== "ArrowUp" && key !== "ArrowDown") return null;
  const from = cell.getBoundingClientRect(), here = centre(from);
  const down = key === "ArrowDown";
  // The nearest line in that direction: the cells whose tops are the closest beyond this cell's.
  let lineTop = null;
  for (const other of all) {
    const top = other.getBoundingClientRect().top;
    const beyond = down ? top >= from.bottom - 1 : top <= from.top - (from.bottom - from.top) + 1 && top < from.top;
    if (!beyond) continue;
    if (lineTop === null || (down ? top < lineTop : top > lineTop)) lineTop = top;
  }
  if (lineTop === null) return null;
  let best = null, distance = Infinity;
  for (const other of all) {
    const rect = other.getBoundingClientRect();
    if (Math.abs(rect.top - lineTop) >= 1) continue;
    const away = Math.abs(centre(rect).x - here.x);
    if (away < distance) { best = other; distance = away; }
  }
  return best;
}

function focusCell(cell) {
  const target = cell.matches(FOCUSABLE) ? cell : cell.querySelector(FOCUSABLE);
  if (target) { target.focus(); return; }
  cell.setAttribute("tabindex", "-1");
  cell.focus();
}

export function createCollections({ doc }) {
  function keydown(event) {
    const target = event.target;
    if (!target || !target.closest || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    if (!["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown"].includes(event.key)) return;
    if (target.matches("input, textarea, select, [contenteditable]")) return;
    const collection = target.closest("[data-collection]");
    if (!collection) return;
    const cell = cells(collection).find((candidate) => candidate === target || candidate.contains(target));
    const next = cell && neighbour(collection, cell, event.key);
    if (!next) return;
    event.preventDefault();
    focusCell(next);
    if (next.scrollIntoView) next.scrollIntoView({ block: "nearest", inline: "nearest" });
  }

  function start() {
    doc.addEventListener("keydown", keydown);
  }

  return { start, keydown };
}
