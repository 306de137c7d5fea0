// @ts-check
/**
 * Passkeys on the club's page (docs/HOSTING.md, "A club"): each ceremony asks the server for
 * its options, lets the browser make or use the passkey (navigator.credentials), and sends
 * the browser's answer back (/api/club/passkeys/…). The WebAuthn options and credentials go
 * as JSON both ways (PublicKeyCredential.parse…FromJSON, credential.toJSON()).
 */

import { api } from "/static/common.js";

/** @type {any} the browser's PublicKeyCredential, with the JSON helpers of WebAuthn level 3 */
const Credential = globalThis.PublicKeyCredential;

/** Whether this browser can make and use passkeys here. */
export function passkeysWork() {
  return Boolean(Credential?.parseCreationOptionsFromJSON && navigator.credentials);
}

/** Make a passkey: options from `optionsPath` (with `body`), the answer to `answerPath`.
 * @param {string} optionsPath @param {unknown} body @param {string} answerPath
 * @returns {Promise<any>} the server's answer */
export async function makePasskey(optionsPath, body, answerPath) {
  const { ceremony, options } = await api("POST", optionsPath, body);
  const made = /** @type {any} */ (
    await navigator.credentials.create({
      publicKey: Credential.parseCreationOptionsFromJSON(options),
    })
  );
  return api("POST", answerPath, { ceremony, credential: made.toJSON() });
}

/** Sign in with a passkey the browser holds for this club. @returns {Promise<any>} the member */
export async function usePasskey() {
  const { ceremony, options } = await api("POST", "/api/club/passkeys/signin/options", {});
  const used = /** @type {any} */ (
    await navigator.credentials.get({ publicKey: Credential.parseRequestOptionsFromJSON(options) })
  );
  return api("POST", "/api/club/passkeys/signin", { ceremony, credential: used.toJSON() });
}
