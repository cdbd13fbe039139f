// The demo (`npm run demo`, or `npx edit-engine demo`): every tool and mode of edit-engine on a
// temporary copy of a sample project, with each result and a diff of the change.
import { runDemo } from '../lib/demo.mjs';

await runDemo();
