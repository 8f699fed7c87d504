import { CODE, editData, editDataBody, editSign, getAccountData, INDUSTRIES, latestBirthday, LIMITS, type AccountData } from '@hublink/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Button, DatePicker, Form, Input, Select } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { call } from '../../api/client';
import { rulesOf } from '../../api/rules';
import { reloadUser } from '../../app/user';

const DATE_FORMAT = 'YYYY-MM-DD';

const rules = {
  nickname: rulesOf(editDataBody, 'nickname'),
  birthday: rulesOf(editDataBody, 'birthday'),
  industry: rulesOf(editDataBody, 'industry'),
  occupation: rulesOf(editDataBody, 'occupation'),
  sign: rulesOf(editSign.body, 'sign'),
};

interface Values {
  nickname: string;
  birthday: string;
  industry: string;
  occupation: string;
  sign: string;
}

const INDUSTRY_OPTIONS = INDUSTRIES.map((i) => ({ value: i.value, label: i.label }));

/**
 * Account info (spec 1 §2.8): nickname, birthday, industry, occupation, and the software member
 * suffix (sent only when it changed). The birthday is kept as 'yyyy-MM-dd' text; the picker greys out
 * days after the latest allowed one.
 */
export function ProfileForm({ account }: { account: AccountData }) {
  const client = useQueryClient();
  const [busy, setBusy] = useState(false);

  const submit = async (v: Values) => {
    if (busy) return;
    setBusy(true);
    try {
      const saved = await call(editData, {
        body: { nickname: v.nickname.trim(), birthday: v.birthday, industry: v.industry, occupation: v.occupation.trim() },
      });
      if (saved.code !== CODE.ok) return;
      const sign = v.sign.trim();
      if (sign.toLowerCase() !== account.sign.toLowerCase()) await call(editSign, { body: { sign } });
      await client.invalidateQueries({ queryKey: [getAccountData.path] });
      void reloadUser();
    } finally {
      setBusy(false);
    }
  };

  return (
    <Form<Values>
      name="account-info"
      layout="vertical"
      requiredMark={false}
      style={{ maxWidth: 480 }}
      initialValues={{
        nickname: account.nickname,
        birthday: account.birthday,
        industry: account.industry || undefined,
        occupation: account.occupation,
        sign: account.sign,
      }}
      onFinish={(v) => void submit(v)}
    >
      <Form.Item label="用户名">
        <Input value={account.username} disabled aria-label="用户名" />
      </Form.Item>
      <Form.Item name="nickname" label="昵称" rules={rules.nickname}>
        <Input aria-label="昵称" maxLength={LIMITS.nicknameMax} />
      </Form.Item>
      <Form.Item
        name="birthday"
        label="生日"
        rules={rules.birthday}
        getValueProps={(v: string) => ({ value: v ? dayjs(v, DATE_FORMAT) : undefined })}
        normalize={(d: Dayjs | null) => (d ? d.format(DATE_FORMAT) : '')}
      >
        <DatePicker
          aria-label="生日"
          format={DATE_FORMAT}
          style={{ width: '100%' }}
          disabledDate={(d) => d.format(DATE_FORMAT) > latestBirthday()}
        />
      </Form.Item>
      <Form.Item name="industry" label="行业" rules={rules.industry}>
        <Select aria-label="行业" placeholder="请选择行业" options={INDUSTRY_OPTIONS} showSearch={{ optionFilterProp: 'label' }} />
      </Form.Item>
      <Form.Item name="occupation" label="职业" rules={rules.occupation}>
        <Input aria-label="职业" maxLength={LIMITS.occupationMax} />
      </Form.Item>
      <Form.Item name="sign" label="成员后缀" rules={rules.sign} extra="软件成员以“用户名@后缀”登录客户端">
        <Input aria-label="成员后缀" maxLength={LIMITS.signMax} />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={busy}>
        保存
      </Button>
    </Form>
  );
}
