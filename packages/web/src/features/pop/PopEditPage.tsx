import { BM, CODE, type FrArea, frOv, LIMITS, type NetworkMember, POP_EDIT_NAME_MAX, POP_REGIONS, popMessages, renameNetworkOnPop, setMemberOv } from '@hublink/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Checkbox, Col, Empty, Flex, Form, Input, Row, Space, Typography } from 'antd';
import { useMemo, useState, type ReactNode } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { useApiMutation, useApiQuery } from '../../api/hooks';
import { rulesOf } from '../../api/rules';
import { toast } from '../../api/notify';
import { useGuardedBusy } from '../../components/useGuardedBusy';
import { PageContainer } from '../../components/PageContainer';
import { useWholeNetwork } from '../../components/useWholeNetwork';

/** Where each member is: a region value, or '' in the pool. */
type Placement = Record<string, string>;

const regionOf = (m: NetworkMember, areas: FrArea[]) => areas.find((a) => a.id === m.ov_id.main)?.region ?? '';

/** A box of members with checkboxes; `actions` at its title. */
function MemberBox({ title, names, checked, onCheck, actions, disabled }: { title: string; names: string[]; checked: string[]; onCheck: (v: string[]) => void; actions?: ReactNode; disabled?: boolean }) {
  return (
    <Card size="small" title={title} extra={actions} role="region" aria-label={title} style={{ height: '100%' }}>
      {names.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={BM.empty} />
      ) : (
        <Checkbox.Group value={checked} onChange={(v) => onCheck(v)} disabled={disabled}>
          <Flex vertical gap={4}>
            {names.map((n) => (
              <Checkbox key={n} value={n}>
                {n}
              </Checkbox>
            ))}
          </Flex>
        </Checkbox.Group>
      )}
    </Card>
  );
}

/** The editor once the network and its areas are known. */
function PopEditor({ members, areas, networkNumber, networkName }: { members: NetworkMember[]; areas: FrArea[]; networkNumber: string; networkName: string }) {
  const initial = useMemo<Placement>(() => Object.fromEntries(members.map((m) => [m.router_name, regionOf(m, areas)])), [members, areas]);
  const [placed, setPlaced] = useState<Placement>(initial);
  const [checked, setChecked] = useState<Record<string, string[]>>({});
  const set = useApiMutation(setMemberOv, { successToast: false });
  const rename = useApiMutation(renameNetworkOnPop, { successToast: false });
  const [nameForm] = Form.useForm<{ network_name: string }>();
  const client = useQueryClient();
  const { busy, run } = useGuardedBusy(LIMITS.networkLoadingClearMs);
  const navigate = useNavigate();
  const names = (where: string) => members.map((m) => m.router_name).filter((n) => placed[n] === where);
  const check = (where: string) => (v: string[]) => setChecked((c) => ({ ...c, [where]: v }));

  const move = (from: string, to: string) => {
    const moving = checked[from] ?? [];
    setPlaced((p) => ({ ...p, ...Object.fromEntries(moving.map((n) => [n, to])) }));
    setChecked((c) => ({ ...c, [from]: [] }));
  };

  const save = () =>
    run(async () => {
      // The name first (up to 32 characters here, spec 2 §9): a refused name stops the save.
      const named = await nameForm.validateFields().catch(() => null);
      if (!named) return;
      const name = named.network_name.trim();
      const renamed = name !== networkName;
      if (renamed && (await rename.mutateAsync({ network_number: networkNumber, network_name: name })).code !== CODE.ok) return;
      const changed = members.filter((m) => placed[m.router_name] !== initial[m.router_name]);
      for (const m of changed) {
        const main = areas.find((a) => a.region === placed[m.router_name])?.id ?? 0;
        const backup = main !== 0 && m.ov_id.backup !== main ? m.ov_id.backup : 0;
        const env = await set.mutateAsync({ network_number: networkNumber, router_name: m.router_name, ov_id_main: main, ov_id_backup: backup });
        if (env.code !== CODE.ok) return;
      }
      if (changed.length > 0 || renamed) await client.invalidateQueries({ predicate: (q) => String(q.queryKey[0]).startsWith('/network') });
      toast.success(BM.saved);
    });

  return (
    <Flex vertical gap={16}>
      <Form form={nameForm} layout="vertical" initialValues={{ network_name: networkName }}>
        <Form.Item name="network_name" label={popMessages.popEditNetworkName} rules={rulesOf(renameNetworkOnPop.body, 'network_name')} style={{ maxWidth: 360, marginBottom: 0 }}>
          <Input maxLength={POP_EDIT_NAME_MAX} showCount aria-label={popMessages.popEditNetworkName} />
        </Form.Item>
      </Form>
      <MemberBox title={popMessages.popEditPool} names={names('')} checked={checked[''] ?? []} onCheck={check('')} />
      <Row gutter={[16, 16]}>
        {POP_REGIONS.map((r) => {
          const area = areas.find((a) => a.region === r.value);
          const title = area ? `${r.name} ${area.bandwidth}Mbps` : r.name;
          return (
            <Col key={r.value} xs={24} sm={12} xl={6}>
              {area ? (
                <MemberBox
                  title={title}
                  names={names(r.value)}
                  checked={checked[r.value] ?? []}
                  onCheck={check(r.value)}
                  actions={
                    <Space size={4}>
                      <Button size="small" type="primary" disabled={(checked[''] ?? []).length === 0} onClick={() => move('', r.value)} aria-label={`${popMessages.popEditMoveIn} ${r.name}`}>
                        {popMessages.popEditMoveIn}
                      </Button>
                      <Button size="small" disabled={(checked[r.value] ?? []).length === 0} onClick={() => move(r.value, '')} aria-label={`${popMessages.popEditMoveOut} ${r.name}`}>
                        {popMessages.popEditMoveOut}
                      </Button>
                    </Space>
                  }
                />
              ) : (
                <Card size="small" title={title} role="region" aria-label={title} style={{ height: '100%' }}>
                  <Typography.Text type="secondary">{popMessages.popEditNoArea}</Typography.Text>
                </Card>
              )}
            </Col>
          );
        })}
      </Row>
      <Flex gap={8} justify="end">
        <Button onClick={() => void navigate(-1)}>{popMessages.popEditBack}</Button>
        <Button type="primary" loading={busy} onClick={() => void save()}>
          {popMessages.popEditSave}
        </Button>
      </Flex>
    </Flex>
  );
}

/**
 * /network/pop_edit?network_number (titled 修改POP点配置, spec 2 §2): the network's members in a pool and
 * in four region columns (华南, 华北, 华东, 国际); moving members in and out and saving sets their main
 * POP area (network/member_ov) to the area of that region of the network's POP resource. The network's
 * name can be changed here too, up to 32 characters (network/pop_name).
 */
export default function PopEditPage() {
  const [params] = useSearchParams();
  const number = params.get('network_number') ?? '';
  const { network: detail, members } = useWholeNetwork(number);
  const ov = useApiQuery(frOv, { network_number: number }, { enabled: number !== '' });
  const areas = ov.data?.data;

  if (number === '') return <Navigate to="/network/lists" replace />;
  if (!detail || !members || !areas) return <PageContainer loading />;
  return (
    <PageContainer>
      {detail.network_fr === null || areas.length === 0 ? (
        <Alert type="warning" showIcon title={popMessages.popNetworkNoFr} />
      ) : (
        <PopEditor key={`${detail.network_fr.network_fr_id}`} members={members} areas={areas} networkNumber={detail.network_number} networkName={detail.network_name} />
      )}
    </PageContainer>
  );
}
