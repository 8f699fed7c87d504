import { ApiOutlined, TeamOutlined } from '@ant-design/icons';
import { type AlertKind, monitorClose, type MonitorConfig, type MonitorFlag, monitorMessages, monitorSetting, webhookConfig } from '@hublink/contract';
import { Button, Card, Checkbox, Flex, Popconfirm, Switch, Typography, theme } from 'antd';
import { useEffect, useState, type ReactNode } from 'react';
import { useApiQuery } from '../../api/hooks';
import { toast } from '../../api/notify';
import { useUser } from '../../session/user';
import { PageContainer } from '../../components/PageContainer';
import { useGuardedBusy } from '../../components/useGuardedBusy';
import { useMonitorMutation } from './api';
import { ContactsDialog } from './ContactsDialog';
import { RouterPicker } from './RouterPicker';
import { useMonitorRights } from './rights';
import { WebhookDialog } from './WebhookDialog';
import { WebhooksCard } from './WebhooksCard';

/** What the save sends, as the screen holds it. */
interface Draft {
  email_confirm: MonitorFlag;
  webhook_confirm: MonitorFlag;
  router_online: MonitorFlag;
  router_offline: MonitorFlag;
  service_expired: MonitorFlag;
  pop_connect: MonitorFlag;
  router: string[];
}

const draftOf = (c: MonitorConfig): Draft => ({
  email_confirm: c.email_confirm,
  webhook_confirm: c.webhook_confirm,
  router_online: c.router_online,
  router_offline: c.router_offline,
  service_expired: c.service_expired,
  pop_connect: c.pop_connect,
  router: c.router.map((r) => r.router_name),
});

const KINDS: { key: AlertKind; label: string }[] = [
  { key: 'router_online', label: monitorMessages.monitorRouterOnline },
  { key: 'router_offline', label: monitorMessages.monitorRouterOffline },
  { key: 'service_expired', label: monitorMessages.monitorServiceExpired },
  { key: 'pop_connect', label: monitorMessages.monitorPopConnect },
];

const flag = (on: boolean): MonitorFlag => (on ? 1 : 0);

/** One channel: its switch, its name and what it means. */
function ChannelRow({ label, hint, children }: { label: string; hint: string; children: ReactNode }) {
  return (
    <Flex gap={12} align="center">
      {children}
      <Flex vertical>
        <Typography.Text>{label}</Typography.Text>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {hint}
        </Typography.Text>
      </Flex>
    </Flex>
  );
}

/**
 * The configuration while monitoring is on (spec 3 §2, §4): channels (the portal message always on;
 * email only with the account's email, the webhook only once one is configured), kinds of alert and
 * the devices; save and close ask first. A sub-account sees the buttons its role allows.
 */
export function MonitorSettings({ config }: { config: MonitorConfig }) {
  const { token } = theme.useToken();
  const rights = useMonitorRights();
  const user = useUser();
  const webhook = useApiQuery(webhookConfig);
  const save = useMonitorMutation(monitorSetting);
  const close = useMonitorMutation(monitorClose);
  const saving = useGuardedBusy();
  const [draft, setDraft] = useState<Draft>(() => draftOf(config));
  const [dialog, setDialog] = useState<'webhook' | 'contacts' | null>(null);
  // A reload (after a save, a closed webhook) shows what the server holds.
  useEffect(() => setDraft(draftOf(config)), [config]);

  const set = (patch: Partial<Draft>) => setDraft((d) => ({ ...d, ...patch }));
  const switchEmail = (on: boolean) => {
    if (on && !user?.user_email) {
      toast.warning(monitorMessages.monitorBindEmailFirst);
      return set({ email_confirm: 0 });
    }
    set({ email_confirm: flag(on) });
  };
  const switchWebhook = (on: boolean) => {
    if (on && !webhook.data?.data) {
      toast.warning(monitorMessages.monitorWebhookFirst);
      return set({ webhook_confirm: 0 });
    }
    set({ webhook_confirm: flag(on) });
  };
  // The kinds are a checkbox group that keeps one ticked: unticking the last warns and leaves it (spec 3 §8).
  const tickKind = (kind: AlertKind, on: boolean) => {
    if (!on && KINDS.every((k) => k.key === kind || draft[k.key] !== 1)) {
      toast.warning(monitorMessages.monitorKindsRequired);
      return;
    }
    set({ [kind]: flag(on) });
  };
  const submit = () => saving.run(async () => void (await save.mutateAsync({ ...draft, portal_confirm: 1 })));

  const readOnly = !rights.edit;
  return (
    <PageContainer
      card={false}
      extra={
        <>
          <Button icon={<ApiOutlined />} onClick={() => setDialog('webhook')}>
            {monitorMessages.monitorWebhookConfig}
          </Button>
          <Button icon={<TeamOutlined />} onClick={() => setDialog('contacts')}>
            {monitorMessages.monitorContacts}
          </Button>
          {rights.edit && (
            <Popconfirm title={monitorMessages.monitorSaveConfirm} onConfirm={submit}>
              <Button type="primary" loading={saving.busy}>
                {monitorMessages.monitorSave}
              </Button>
            </Popconfirm>
          )}
          {rights.disable && (
            <Popconfirm title={monitorMessages.monitorCloseConfirm} onConfirm={() => close.mutateAsync(undefined)}>
              <Button danger loading={close.isPending}>
                {monitorMessages.monitorClose}
              </Button>
            </Popconfirm>
          )}
        </>
      }
    >
      <Card title={monitorMessages.monitorChannels} variant="borderless">
        <Flex gap={token.marginLG} wrap>
          <ChannelRow label={monitorMessages.monitorPortal} hint={monitorMessages.monitorPortalHint}>
            <Switch checked disabled aria-label={monitorMessages.monitorPortal} />
          </ChannelRow>
          <ChannelRow label={monitorMessages.monitorEmail} hint={monitorMessages.monitorEmailHint}>
            <Switch checked={draft.email_confirm === 1} disabled={readOnly} onChange={switchEmail} aria-label={monitorMessages.monitorEmail} />
          </ChannelRow>
          <ChannelRow label={monitorMessages.monitorWebhook} hint={monitorMessages.monitorWebhookHint}>
            <Switch checked={draft.webhook_confirm === 1} disabled={readOnly || webhook.isPending} onChange={switchWebhook} aria-label={monitorMessages.monitorWebhook} />
          </ChannelRow>
        </Flex>
      </Card>
      <WebhooksCard />
      <Card title={monitorMessages.monitorKinds} variant="borderless">
        <Flex gap={token.marginLG} wrap role="group" aria-label={monitorMessages.monitorKinds}>
          {KINDS.map((k) => (
            <Checkbox key={k.key} checked={draft[k.key] === 1} disabled={readOnly} onChange={(e) => tickKind(k.key, e.target.checked)}>
              {k.label}
            </Checkbox>
          ))}
        </Flex>
      </Card>
      <Card title={monitorMessages.monitorRouters} variant="borderless">
        <RouterPicker selected={draft.router} onChange={(router) => set({ router })} disabled={readOnly} />
      </Card>
      <WebhookDialog open={dialog === 'webhook'} onClose={() => setDialog(null)} />
      <ContactsDialog open={dialog === 'contacts'} onClose={() => setDialog(null)} />
    </PageContainer>
  );
}
