/**
 * `npm run fleet`: builds the fleet of test/support/fleet.ts (a database host, two gateway
 * hosts, three agent hosts with tmux, providers and stand-in agents, each a network namespace)
 * and keeps it up until Ctrl-C, printing how to reach it: both gateway URLs, the admin token,
 * the goal, each agent host's namespace and tmux socket. Try a fault by hand, e.g.
 * `ip -n <bridge namespace> link set l-a3 down`. Root only.
 */
import { startFleet } from '../test/support/fleet.ts';

const fleet = await startFleet({ log: (line) => process.stderr.write(`fleet: ${line}\n`) });
process.stdout.write(
  `${JSON.stringify(
    {
      url: fleet.url,
      adminToken: fleet.adminToken,
      goal: fleet.goalId,
      bridge: fleet.bridge,
      hosts: fleet.agentHosts.map((host) => ({
        host: host.name,
        namespace: host.ns,
        address: host.address,
        tmux: `tmux -S ${host.sock} attach`,
        provider: host.providerId,
        agents: host.agents,
      })),
    },
    null,
    2,
  )}\n`,
);
process.stderr.write('fleet: up; Ctrl-C tears it down\n');
const stop = () => void fleet.teardown().then(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
