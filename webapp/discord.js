// The board page inside Discord (issue 32): the Activity's sign-in, with Discord's Embedded App SDK.
//
// Discord opens the page in an iframe with `frame_id`, `instance_id`, `platform` (and more) in its
// query string. Only then does this run the SDK: it asks Discord's client for an OAuth2 code
// (scope identify, no prompt when already allowed), posts it with the instance id to the server
// (`/api/discord/token`), which exchanges it itself (the client secret stays on the server) and
// finds the user and the game from Discord's side. The server's answer carries the board's session
// token, and the access token the SDK's `authenticate` needs. Then the board starts.
//
// The page (the board's own script) calls:
//   if (AdaDiscord.launchedByDiscord()) AdaDiscord.openInDiscord({ apiBase, startBoard });
// The bundle (webapp/dist/discord-<hash>.js, see build.mjs) sets `window.AdaDiscord`.
import { DiscordSDK } from "@discord/embedded-app-sdk";

/** True when Discord launched the page as an Activity (its `frame_id` query parameter). */
export function launchedByDiscord(search = window.location.search) {
  return new URLSearchParams(search).has("frame_id");
}

/** Say why the board could not open, in the page, in the server's words (already translated). */
function showProblem(text) {
  const box = document.createElement("p");
  box.className = "ada-discord-problem";
  box.setAttribute("role", "alert");
  box.textContent = text;
  document.body.prepend(box);
}

/**
 * Sign in through Discord, then `startBoard({ token, apiBase })`.
 * `apiBase`: where the server's routes are ("" for this origin: behind Discord's proxy the page's
 * own origin is the mapped one, so relative URLs stay within the URL mapping).
 */
export async function openInDiscord({ apiBase = "", startBoard }) {
  try {
    const configured = await fetch(`${apiBase}/api/discord/config`);
    const config = await configured.json();
    if (!configured.ok) {
      showProblem(config.error); // the Activity is off on this bot (in the server's words)
      return null;
    }
    const sdk = new DiscordSDK(config.client_id);
    await sdk.ready();
    const { code } = await sdk.commands.authorize({
      client_id: config.client_id,
      response_type: "code",
      state: "",
      prompt: "none",
      scope: ["identify"],
    });
    const res = await fetch(`${apiBase}/api/discord/token`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        code,
        instance_id: sdk.instanceId,
        custom_id: sdk.customId || undefined,
      }),
    });
    const answer = await res.json();
    if (!res.ok) {
      showProblem(answer.error);
      return null;
    }
    await sdk.commands.authenticate({ access_token: answer.access_token });
    return startBoard({ token: answer.token, apiBase });
  } catch (error) {
    showProblem(String((error && error.message) || error));
    return null;
  }
}
