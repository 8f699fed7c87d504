import { LIMITS, NETWORK_DOCUMENT_FORMATS, planNetwork } from '@hublink/contract';
import { z } from 'zod';
import { networkEffect, networkSnapshot } from '../../compiler/preview';
import type { Actor } from '../../core/actor';
import type { Ctx } from '../../core/context';
import { providePreview } from '../../core/preview';
import * as asCode from '../../modules/network/asCode';
import { saveKeepingEffect } from '../../modules/network/changes';
import { defineCommand, tenantArg } from '../command';
import { fileArg } from '../files';
import { applyText, planText, type ApplyAnswer } from '../networkPlanText';
import { findTenant } from './tenant';

/*
 * Networks as code for the operator (issue 36, docs/as-code.md): export, plan and apply a tenant's
 * network as the tenant's main account (docs/decisions.md, "Networks as code from the command line").
 */

/** The tenant's main account: what the console's owner of the network could do, the commands do. */
async function mainAccountOf(ctx: Ctx, tenant: string): Promise<Actor> {
  const { id } = await findTenant(ctx, tenant);
  return { tenantId: id, ramId: null, sessionId: '', role: null };
}

/**
 * Plan and apply compare the network before and after through the compiler's previewer, which the
 * server provides when it mounts the compiler's routes; a CLI session mounts none, so it is provided here.
 */
const withPreviewer = (ctx: Ctx) => providePreview(ctx, 'network', { snapshot: networkSnapshot, compare: networkEffect });

const NETWORK_REQUIRED = 'a network number is required';
const networkArg = z.string({ error: NETWORK_REQUIRED }).trim().min(1, NETWORK_REQUIRED);

/** FILE: the document's text, held to the API's own rules (not empty, at most LIMITS.networkDocumentMax characters). */
const documentFile = fileArg('FILE', LIMITS.networkDocumentMax * 4)
  .transform((file) => file.body.toString('utf8'))
  .pipe(planNetwork.body.shape.document);

const exportCommand = defineCommand({
  group: 'network',
  name: 'export',
  summary: "print a tenant's network as a document (YAML or JSON)",
  options: {
    tenant: { help: 'the tenant (id or username)' },
    network: { help: 'the network number' },
    format: { help: 'yaml (default) or json' },
  },
  input: z.object({
    tenant: tenantArg,
    network: networkArg,
    format: z.enum(NETWORK_DOCUMENT_FORMATS, { error: 'the format is yaml or json' }).default('yaml'),
  }),
  async run(ctx, input) {
    const actor = await mainAccountOf(ctx, input.tenant);
    const exported = await asCode.exportDocument(ctx, actor, input.network, input.format);
    return { done: exported.document.replace(/\n$/, ''), data: exported };
  },
});

const documentCommand = {
  positionals: ['file'],
  options: {
    tenant: { help: 'the tenant (id or username)' },
    network: { help: 'the network the document is for; left out: a new network' },
  },
  input: z.object({ file: documentFile, tenant: tenantArg, network: networkArg.optional() }),
};

const planCommand = defineCommand({
  group: 'network',
  name: 'plan',
  summary: "what applying a document to a tenant's network would change, its reachability effect and the drift; changes nothing",
  ...documentCommand,
  async run(ctx, input) {
    const actor = await mainAccountOf(ctx, input.tenant);
    withPreviewer(ctx);
    // No caller's address: the operator is connected through none of the tenant's members.
    const plan = await asCode.plan(ctx, actor, input.network, input.file, '');
    return { done: planText(plan), data: plan };
  },
});

const applyCommand = defineCommand({
  group: 'network',
  name: 'apply',
  summary: "make a tenant's network what a document says (a new network without --network), all of it or nothing",
  ...documentCommand,
  async run(ctx, input) {
    const actor = await mainAccountOf(ctx, input.tenant);
    withPreviewer(ctx);
    let answer: ApplyAnswer | undefined;
    const run = async () => {
      answer = await asCode.apply(ctx, actor, input.network, input.file);
    };
    // As the API's apply: the change's effect is kept with the version and the audit entry (a new network has none).
    await (input.network === undefined ? run() : saveKeepingEffect(ctx, actor, run));
    if (!answer) throw new Error('network apply: no answer');
    return { done: applyText(answer), data: answer };
  },
});

export const networkCommands = [exportCommand, planCommand, applyCommand];
