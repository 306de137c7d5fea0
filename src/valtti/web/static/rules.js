// @ts-check
/**
 * The rules page (/rules): RULES.md sections 1–6 and the variants, written for players, in the
 * page's language. Each section is a heading and paragraphs (or a list) of catalogue keys.
 * Hooks: #rules section[data-section="s1" … "variants"], each with that id (/rules#s4: the
 * table page's explanations link there).
 */

import { initI18n } from "/static/i18n.js";
import { byId, el, i18nEl } from "/static/common.js";

const SECTIONS = [
  ["s1", ["p1", "p2", "p3"]],
  ["s2", ["p1"]],
  ["s3", ["p1", "p2", "p3"]],
  ["s4", ["p1", ["declare", "whole", "half"], "p2", "p3"]],
  ["s5", ["p1"]],
  ["s6", ["p1", "p2"]],
  ["variants", [["p1", "p2", "p3", "p4", "p5", "p6"]]],
];

function draw() {
  const box = byId("rules-sections");
  box.replaceChildren();
  for (const [name, parts] of SECTIONS) {
    const section = el(
      "section",
      { id: name, dataset: { section: name } },
      i18nEl("h2", `rules.${name}`),
    );
    for (const part of parts) {
      if (Array.isArray(part)) {
        section.append(
          el(
            "ul",
            {},
            part.map((p) => i18nEl("li", `rules.${name}.${p}`)),
          ),
        );
      } else section.append(i18nEl("p", `rules.${name}.${part}`));
    }
    box.append(section);
  }
}

await initI18n();
draw();
// Drawn after the page loaded: go to the section the address names (/rules#s4).
if (location.hash) document.getElementById(location.hash.slice(1))?.scrollIntoView();
