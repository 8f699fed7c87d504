/*
 * The `hublink` command. A device's commands (agent, simulate) load only the agent: on a router it
 * starts in about a second instead of loading the whole server first (serverCommands.ts). The
 * tenant's `network` client loads only the contract and talks to a server over HTTP.
 */

const USAGE = `usage: hublink <command>
  start     run the console, API and device gateway (migrates first); --demo adds a demo tenant with simulated devices
  migrate   bring the database schema up to date and exit
  jobs      list the background jobs and their latest runs
  backup    FILE: write an archive of the data dir with a consistent copy of the SQLite database (while the server runs)
  restore   FILE --data-dir DIR: restore such an archive into an empty or new DIR
  ops       the operator's commands (tenants, services, announcements, tickets, POP …): hublink ops help
  agent     run a device agent: --url ws://HOST (--router NAME | --login USER@SIGN) --secret S [--state-dir D] [--simulate]
  simulate  run many simulated agents: --url ws://HOST (--file members.json | --routers PREFIX:COUNT [--apps USER@SIGN:COUNT]) --secret S
  relay     run a POP relay: --server http(s)://HOST --token T (from hublink ops pops relay-add)
  network   export, plan or apply a network as code on a server: --server URL, API token in $HUBLINK_TOKEN (hublink network --help)`;

const name = process.argv[2] ?? 'start';
if (name === 'agent' || name === 'simulate' || name === 'relay') {
  // They exit with their own code (1: refused by the server, 2: bad usage).
  const { runAgentCommand, runRelayCommand, runSimulateCommand } = await import('@hublink/agent');
  process.exitCode = await (name === 'agent' ? runAgentCommand : name === 'relay' ? runRelayCommand : runSimulateCommand)(process.argv.slice(3));
} else if (name === 'network') {
  const { runNetworkClient } = await import('./client/networkClient');
  process.exitCode = await runNetworkClient(process.argv.slice(3), { env: process.env, out: (text) => console.log(text), err: (text) => console.error(text) });
} else {
  const { runServerCommand } = await import('./serverCommands');
  if (!runServerCommand(name)) {
    console.error(USAGE);
    process.exit(2);
  }
}

export {};
