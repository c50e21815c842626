// Functions that run inside the report's page: playwright serialises them (page.evaluate,
// locator.evaluate, addInitScript), so they may use only their arguments and the page's
// globals. The project compiles without the DOM library; the little of it used here is declared
// in this module (module-scoped, so nothing else gains browser globals).

interface DomNode {
  textContent: string | null;
  parentElement: DomElement | null;
}

interface DomElement extends DomNode {
  id: string;
  tagName: string;
  open?: boolean;
  previousElementSibling: DomElement | null;
  attributes: ArrayLike<{ name: string }>;
  getAttribute(name: string): string | null;
  getBoundingClientRect(): { top: number; height: number };
  matches(selector: string): boolean;
}

interface DomDocument {
  body: DomElement;
  querySelectorAll(selector: string): Iterable<DomElement>;
  getElementById(id: string): DomElement | null;
  createTreeWalker(root: DomElement, whatToShow: number): { nextNode(): DomNode | null };
  addEventListener(
    type: "securitypolicyviolation",
    listener: (event: { violatedDirective: string; blockedURI: string }) => void,
  ): void;
}

interface PageWindow {
  innerHeight: number;
  location: { hash: string };
  __violations?: string[];
  __pwned?: unknown;
}

declare const document: DomDocument;
declare const window: PageWindow;

/** Follows a link to `#id` as the address bar would (a hashchange). */
export function goToHash(id: string): void {
  window.location.hash = id;
}

/** The element's top edge is on screen. */
export function isInViewport(element: DomElement): boolean {
  const box = element.getBoundingClientRect();
  return box.top >= -1 && box.top < window.innerHeight && box.height > 0;
}

/** A `<details>` is open. */
export function isOpen(element: DomElement): boolean {
  return element.open === true;
}

/** Init script: keeps every Content-Security-Policy violation of the page in `window.__violations`. */
export function recordViolations(): void {
  const seen: string[] = [];
  window.__violations = seen;
  document.addEventListener("securitypolicyviolation", (event) =>
    seen.push(`${event.violatedDirective}: ${event.blockedURI}`),
  );
}

/** The CSP violations recorded so far. */
export function violations(): string[] {
  return window.__violations ?? [];
}

/** What a hostile string would have set had it run. */
export function pwned(): unknown {
  return window.__pwned;
}

/** Targets of in-page links (`href="#…"`) that no element has as its id. */
export function danglingLinks(): string[] {
  return [...document.querySelectorAll('a[href^="#"]')]
    .map((link) => decodeURIComponent((link.getAttribute("href") ?? "").slice(1)))
    .filter((id) => !document.getElementById(id));
}

/**
 * Text of the given sections that shows a pattern id a reader cannot resolve: neither beside the
 * pattern's name link (`<a class="pattern-ref">name</a> <small>id</small>`) nor itself a link
 * titled with the name (`<a class="pattern-id" title="name">id</a>`, in verbatim prompts).
 */
export function barePatternIds(sections: string[]): string[] {
  const found: string[] = [];
  const showText = 4; // NodeFilter.SHOW_TEXT
  for (const section of sections) {
    const root = document.getElementById(section);
    if (!root) continue;
    const walker = document.createTreeWalker(root, showText);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (!/\bp-[0-9a-f]{12}\b/.test(node.textContent ?? "")) continue;
      const holder = node.parentElement;
      const besideName =
        holder?.tagName === "SMALL" &&
        holder.previousElementSibling?.matches("a.pattern-ref") === true;
      const titledLink =
        holder?.matches("a.pattern-id") === true && (holder.getAttribute("title") ?? "") !== "";
      if (!besideName && !titledLink) found.push(node.textContent ?? "");
    }
  }
  return found;
}

/** Elements a hostile string would have created: active or loading tags, and `on*` attributes. */
export function activeMarkup(): { tags: string[]; handlers: string[]; scripts: number } {
  const tags = [
    ...document.querySelectorAll("img, iframe, link, object, embed, frame, video, audio, form"),
  ].map((element) => element.tagName);
  const handlers: string[] = [];
  for (const element of document.querySelectorAll("*"))
    for (const attribute of Array.from(element.attributes))
      if (attribute.name.toLowerCase().startsWith("on"))
        handlers.push(`${element.tagName} ${attribute.name}`);
  const svgs = [...document.querySelectorAll("svg")].length;
  if (svgs !== 1) tags.push(`${svgs} svg`);
  return { tags, handlers, scripts: [...document.querySelectorAll("script")].length };
}

/** Opens every `<details>` of the page (everything a hostile string could hide in is shown). */
export function openEverything(): number {
  let opened = 0;
  for (const details of document.querySelectorAll("details")) {
    details.open = true;
    opened += 1;
  }
  return opened;
}

/** Which of `needles` occur in the text of a section other than `section`. */
export function textOutside(options: { section: string; needles: string[] }): string[] {
  const found = new Set<string>();
  for (const element of document.querySelectorAll("section")) {
    if (element.id === options.section) continue;
    const text = element.textContent ?? "";
    for (const needle of options.needles) if (text.includes(needle)) found.add(needle);
  }
  return [...found];
}
