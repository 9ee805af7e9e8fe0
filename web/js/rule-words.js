// Rule options in players' words: the server gives each option's label and explanation
// (GET /api/variants); the values are key=value text, said here in words.

const VALUE_WORDS = { true: 'yes', false: 'no', ML: 'Middle and Last', at_victims_turn: "at the victim's turn" };

/** A rule option's value in words: yes/no for on/off options, the choice's words otherwise. */
export function valueWords(value) {
  return VALUE_WORDS[value] ?? String(value).replaceAll('_', ' ');
}

/** `key=value` texts as "Label: value" for a variant's options (the key when unknown). */
export function rulesInWords(variant, rules) {
  return rules.map((text) => {
    const [key, value = ''] = text.split('=');
    const option = variant?.options?.find((o) => o.key === key.trim());
    return `${option ? option.label : key}: ${valueWords(value.trim())}`;
  });
}

let variantsByName = null;   // name → variant info, once GET /api/variants has answered

/** Fetches the variants' option words once; resolves when they are known. */
export async function loadRuleWords() {
  if (!variantsByName) {
    const res = await fetch('/api/variants');
    if (!res.ok) throw new Error(`GET /api/variants: ${res.status}`);
    variantsByName = Object.fromEntries((await res.json()).map((v) => [v.name, v]));
  }
}

/** A game's non-default rules in words for its header; the raw texts until the words are in. */
export function gameRulesText(variantName, rules) {
  const variant = variantsByName?.[variantName];
  return (variant ? rulesInWords(variant, rules) : rules).join('; ');
}
