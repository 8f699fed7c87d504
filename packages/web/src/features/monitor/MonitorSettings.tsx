import { ApiOutlined, TeamOutlined } from '@ant-design/icons';
import { M, monitorClose, monitorSetting, webhookConfig, type AlertKind, type MonitorConfig, type MonitorFlag } from '@hublink/contract';
import { Button, Card, Checkbox, Flex, Popconfirm, Switch, Typography, theme } from 'antd';
import { useEffect, useState, type ReactNode } from 'react';
import { useApiQuery } from '../../api/hooks';
import { toast } from '../../api/notify';
import { useUser } from '../../app/user';
import { PageContainer } from '../../components/PageContainer';
import { useGuardedBusy } from '../../components/useGuardedBusy';
import { useMonitorMutation } from './api';
import { ContactsDialog } from './ContactsDialog';
import { RouterPicker } from './RouterPicker';
import { useMonitorRights } from './rights';
import { WebhookDialog } from './WebhookDialog';

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
  { key: 'router_online', label: M.monitorRouterOnline },
  { key: 'router_offline', label: M.monitorRouterOffline },
  { key: 'service_expired', label: M.monitorServiceExpired },
  { key: 'pop_connect', label: M.monitorPopConnect },
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
      toast.warning(M.monitorBindEmailFirst);
      return set({ email_confirm: 0 });
    }
    set({ email_confirm: flag(on) });
  };
  const switchWebhook = (on: boolean) => {
    if (on && !webhook.data?.data) {
      toast.warning(M.monitorWebhookFirst);
      return set({ webhook_confirm: 0 });
    }
    set({ webhook_confirm: flag(on) });
  };
  // The kinds are a checkbox group that keeps one ticked: unticking the last warns and leaves it (spec 3 §8).
  const tickKind = (kind: AlertKind, on: boolean) => {
    if (!on && KINDS.every((k) => k.key === kind || draft[k.key] !== 1)) {
      toast.warning(M.monitorKindsRequired);
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
            {M.monitorWebhookConfig}
          </Button>
          <Button icon={<TeamOutlined />} onClick={() => setDialog('contacts')}>
            {M.monitorContacts}
          </Button>
          {rights.edit && (
            <Popconfirm title={M.monitorSaveConfirm} onConfirm={submit}>
              <Button type="primary" loading={saving.busy}>
                {M.monitorSave}
              </Button>
            </Popconfirm>
          )}
          {rights.disable && (
            <Popconfirm title={M.monitorCloseConfirm} onConfirm={() => close.mutateAsync(undefined)}>
              <Button danger loading={close.isPending}>
                {M.monitorClose}
              </Button>
            </Popconfirm>
          )}
        </>
      }
    >
      <Card title={M.monitorChannels} variant="borderless">
        <Flex gap={token.marginLG} wrap>
          <ChannelRow label={M.monitorPortal} hint={M.monitorPortalHint}>
            <Switch checked disabled aria-label={M.monitorPortal} />
          </ChannelRow>
          <ChannelRow label={M.monitorEmail} hint={M.monitorEmailHint}>
            <Switch checked={draft.email_confirm === 1} disabled={readOnly} onChange={switchEmail} aria-label={M.monitorEmail} />
          </ChannelRow>
          <ChannelRow label={M.monitorWebhook} hint={M.monitorWebhookHint}>
            <Switch checked={draft.webhook_confirm === 1} disabled={readOnly || webhook.isPending} onChange={switchWebhook} aria-label={M.monitorWebhook} />
          </ChannelRow>
        </Flex>
      </Card>
      <Card title={M.monitorKinds} variant="borderless">
        <Flex gap={token.marginLG} wrap role="group" aria-label={M.monitorKinds}>
          {KINDS.map((k) => (
            <Checkbox key={k.key} checked={draft[k.key] === 1} disabled={readOnly} onChange={(e) => tickKind(k.key, e.target.checked)}>
              {k.label}
            </Checkbox>
          ))}
        </Flex>
      </Card>
      <Card title={M.monitorRouters} variant="borderless">
        <RouterPicker selected={draft.router} onChange={(router) => set({ router })} disabled={readOnly} />
      </Card>
      <WebhookDialog open={dialog === 'webhook'} onClose={() => setDialog(null)} />
      <ContactsDialog open={dialog === 'contacts'} onClose={() => setDialog(null)} />
    </PageContainer>
  );
}
