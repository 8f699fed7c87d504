/*
 * FRR configuration text as a tree (a context line such as `router bgp 64512` or `route-map X permit
 * 10` holding its indented lines), and the vtysh commands that turn one configuration into another
 * while touching nothing else: a BGP session whose lines did not change is never reset.
 *
 * The difference removes first, walking the old tree backwards (so an address family's lines go before
 * the neighbour they name, and a reference before what it names), then adds, walking the new tree
 * forwards (so a definition comes before what names it). A removed context goes with one `no` of its
 * line, unless it is nested (an address family), when its lines go one by one. A line whose setting
 * is only changed (a prefix-list entry of the same sequence number, a route map named for a
 * neighbour's direction, …) is not removed first: writing the new one replaces it in place, so there
 * is no moment without it (an accept list briefly missing would let everything in).
 */

export interface ConfigNode {
  line: string;
  children: ConfigNode[];
}

/** Lines that only close a context or separate blocks: the tree's shape says the same. */
const CLOSERS = new Set(['!', 'exit', 'exit-address-family', 'exit-vrf', 'end']);

/** Lines of `show running-config` that describe the daemons rather than the configuration. */
const PREAMBLE = [/^Building configuration/, /^Current configuration:/, /^frr version /, /^frr defaults /, /^hostname /, /^(no )?ip(v6)? forwarding$/, /^service /, /^log /];

export function parseConfig(text: string, options: { runningConfig?: boolean } = {}): ConfigNode[] {
  const root: ConfigNode[] = [];
  const stack: { indent: number; children: ConfigNode[] }[] = [{ indent: -1, children: root }];
  for (const raw of text.split('\n')) {
    const line = raw.trimEnd();
    const content = line.trim();
    if (!content || CLOSERS.has(content) || content.startsWith('!')) continue;
    if (options.runningConfig && PREAMBLE.some((p) => p.test(content))) continue;
    const indent = line.length - line.trimStart().length;
    while (stack.length > 1 && stack[stack.length - 1]!.indent >= indent) stack.pop();
    const node: ConfigNode = { line: content, children: [] };
    stack[stack.length - 1]!.children.push(node);
    stack.push({ indent, children: node.children });
  }
  return root;
}

/** Every line with the contexts it is in ('router bgp 64512 > address-family ipv4 unicast > neighbor …'), sorted: for comparing configurations whose blocks come in another order. */
export function flatten(nodes: ConfigNode[], prefix = ''): string[] {
  return nodes.flatMap((n) => [`${prefix}${n.line}`, ...flatten(n.children, `${prefix}${n.line} > `)]).sort();
}

/**
 * What a line sets, when writing another value replaces it in FRR 8.4 (checked against its vtysh):
 * two lines of one key at one level are one setting changed. Other lines are their own key.
 */
const REPLACED: RegExp[] = [
  /^(ip prefix-list \S+ seq \d+) /,
  /^(bgp router-id) /,
  /^(ospf router-id) /,
  /^(timers bgp) /,
  /^(timers throttle spf) /,
  /^(maximum-paths ibgp) /,
  /^(neighbor \S+ description) /,
  /^(neighbor \S+ timers connect) /,
  /^(neighbor \S+ route-map) \S+ (in|out)$/,
  /^(redistribute \S+)( |$)/,
  /^(match ip address prefix-list) /,
  /^(match community) /,
  /^(set community) /,
  /^(bgp route-map delay-timer) /,
];

function keyOf(line: string): string {
  for (const pattern of REPLACED) {
    const m = pattern.exec(line);
    if (m) return m.slice(1).filter((part) => part && part !== ' ').join(' ');
  }
  return line;
}

const negate = (line: string) => (line.startsWith('no ') ? line.slice(3) : `no ${line}`);
const exitOf = (line: string) => (line.startsWith('address-family ') ? 'exit-address-family' : 'exit');

function removals(from: ConfigNode[], to: ConfigNode[], nested: boolean): string[] {
  const out: string[] = [];
  const toLines = new Map(to.map((n) => [n.line, n]));
  const toKeys = new Set(to.map((n) => keyOf(n.line)));
  for (const node of [...from].reverse()) {
    const kept = toLines.get(node.line);
    if (kept) {
      const inner = removals(node.children, kept.children, true);
      if (inner.length > 0) out.push(node.line, ...inner, exitOf(node.line));
    } else if (node.children.length > 0 && nested) {
      // An address family cannot be removed with `no`: its lines go.
      const inner = removals(node.children, [], true);
      if (inner.length > 0) out.push(node.line, ...inner, exitOf(node.line));
    } else if (node.children.length > 0 || !toKeys.has(keyOf(node.line))) {
      out.push(negate(node.line));
    }
  }
  return out;
}

function whole(node: ConfigNode): string[] {
  return node.children.length === 0 ? [node.line] : [node.line, ...node.children.flatMap(whole), exitOf(node.line)];
}

function additions(from: ConfigNode[], to: ConfigNode[]): string[] {
  const out: string[] = [];
  const fromLines = new Map(from.map((n) => [n.line, n]));
  for (const node of to) {
    const had = fromLines.get(node.line);
    if (!had) out.push(...whole(node));
    else if (node.children.length > 0) {
      const inner = additions(had.children, node.children);
      if (inner.length > 0) out.push(node.line, ...inner, exitOf(node.line));
    }
  }
  return out;
}

/** The commands (in configuration mode) that turn `from` into `to`; none when they are the same. */
export function configDiff(from: ConfigNode[], to: ConfigNode[]): string[] {
  return [...removals(from, to, false), ...additions(from, to)];
}

/** The whole configuration as commands (in configuration mode): what a fresh daemon is given. */
export function configCommands(nodes: ConfigNode[]): string[] {
  return nodes.flatMap(whole);
}
