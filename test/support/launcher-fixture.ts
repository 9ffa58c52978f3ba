/**
 * A stand-in launcher for test/launcher-children.e2e-spec.ts: starts test/support/role-fixture.ts
 * the way scripts/start.ts starts its roles, prints the role's output, and on SIGINT writes a line
 * (to a stdout whose reader may be gone) and exits without stopping the role itself.
 */
import { startRole } from '../../scripts/start';

const role = startRole('role', 'test/support/role-fixture.ts', process.env);
process.on('SIGINT', () => {
  process.stdout.write('launcher: SIGINT\n');
  setTimeout(() => process.exit(0), 50);
});
void role.exited;
