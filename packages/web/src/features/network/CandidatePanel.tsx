import { LIMITS, type MemberOption, type MemberType, networkMessages } from '@hublink/contract';
import { Button, Card, Empty, Input, List, Space } from 'antd';
import { useState } from 'react';
import { canBeCenter, matches } from './memberPicker';
import { NoteLine } from './NoteLine';
import './memberPicker.css';

export interface CandidatePanelProps {
  title: string;
  /** Members not yet picked. */
  members: MemberOption[];
  onAdd: (member: MemberOption, position: MemberType) => void;
}

/** One column of candidates (hardware or software) with a search box; each can move in as center or point. */
export function CandidatePanel({ title, members, onAdd }: CandidatePanelProps) {
  const [text, setText] = useState('');
  const shown = members.filter((m) => matches(m, text));
  return (
    <Card size="small" title={title} role="region" aria-label={title}>
      <Input.Search allowClear placeholder={networkMessages.networkMemberSearch} aria-label={`${title} ${networkMessages.networkMemberSearch}`} onChange={(e) => setText(e.target.value)} onSearch={setText} style={{ marginBottom: 8 }} />
      <List<MemberOption>
        size="small"
        dataSource={shown}
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={networkMessages.networkNoCandidates} /> }}
        pagination={shown.length > LIMITS.pageSize ? { pageSize: LIMITS.pageSize, size: 'small', showSizeChanger: false, simple: true } : false}
        renderItem={(m) => (
          <List.Item
            className="hl-member-candidate"
            actions={[
              <Space key="add" size={0}>
                <Button size="small" type="link" aria-label={`${networkMessages.networkPositionCenter} ${m.router_name}`} disabled={!canBeCenter(m)} title={canBeCenter(m) ? undefined : networkMessages.networkSoftwareCenter} onClick={() => onAdd(m, 'center')}>
                  {networkMessages.networkPositionCenter}
                </Button>
                <Button size="small" type="link" aria-label={`${networkMessages.networkPositionPoint} ${m.router_name}`} onClick={() => onAdd(m, 'point')}>
                  {networkMessages.networkPositionPoint}
                </Button>
              </Space>,
            ]}
          >
            <List.Item.Meta title={m.router_name} description={m.note ? <NoteLine note={m.note} secondary /> : undefined} />
          </List.Item>
        )}
      />
    </Card>
  );
}
