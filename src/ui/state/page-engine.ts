// The page's one engine client. main.tsx imports this module first, so the engine worker starts
// (and the demo's logs are asked for, startup.ts) before the rest of the page's script runs and
// renders, rather than after.
import { EngineClient } from "../../engine/client";
import { mayOpenOnDemo } from "./startup";

/** On a page that may open on the demo, the helper workers start after its first screen (use-restore.ts). */
export const engine = new EngineClient({ helpersLater: mayOpenOnDemo() });
