// zod (the contract's document schema, which the renderer reads) probes `new Function` when its first object schema is
// built, to pick its fast path: the app's CSP forbids eval, and the browser reports the probe as a violation even
// though zod catches it. The Page screen loads this module, its own chunk, before the renderer's (a static import would
// be bundled into the renderer's chunk, which runs after the chunks it imports, zod's schemas among them).
import { z } from 'zod';

z.config({ jitless: true });
