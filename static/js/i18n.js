/* The page's translations, from Django's JavaScript catalog (loaded before the modules). */
export const gettext = (text) => globalThis.gettext(text);
export const ngettext = (one, many, count) => globalThis.ngettext(one, many, count);
export const pgettext = (context, text) => globalThis.pgettext(context, text);
export const fmt = (text, values) => globalThis.interpolate(text, values, true);
