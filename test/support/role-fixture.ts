/** A stand-in role for test/launcher-children.e2e-spec.ts: watches its launcher, says its pid, then idles. */
import { endWithParent } from '../../src/common/end-with-parent';

endWithParent();
process.stdout.write(`role pid ${process.pid}\n`);
setInterval(() => undefined, 60_000);
