// @ts-check
/**
 * The page of an unknown table or address (answered with HTTP 404): its texts in the page's
 * language and a link to the lobby. Hooks: #notfound, #to-lobby.
 */

import { initI18n } from "/static/i18n.js";

await initI18n();
