// The bundle's entry: the Activity's sign-in as `window.AdaDiscord` for the board page's script.
import { launchedByDiscord, openInDiscord } from "./discord.js";

window.AdaDiscord = { launchedByDiscord, openInDiscord };
