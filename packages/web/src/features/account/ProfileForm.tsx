import { type AccountData, accountMessages, BM, CODE, editData, editDataBody, editSign, getAccountData, INDUSTRIES, latestBirthday, LIMITS } from '@hublink/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Button, DatePicker, Form, Input, Select } from 'antd';
import dayjs, { type Dayjs } from '../../components/dayjs';
import { useState } from 'react';
import { call } from '../../api/client';
import { toast } from '../../api/notify';
import { rulesOf } from '../../api/rules';
import { reloadUser } from '../../session/user';

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
      // One save, one success toast: the profile's, once the suffix (when it changed) is saved too.
      const saved = await call(
        editData,
        { body: { nickname: v.nickname.trim(), birthday: v.birthday, industry: v.industry, occupation: v.occupation.trim() } },
        { successToast: false },
      );
      if (saved.code !== CODE.ok) return;
      const sign = v.sign.trim();
      const signed = sign.toLowerCase() === account.sign.toLowerCase() ? saved : await call(editSign, { body: { sign } }, { successToast: false });
      if (signed.code === CODE.ok) toast.success(saved.msg);
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
      <Form.Item label={accountMessages.profileUsername}>
        <Input value={account.username} disabled aria-label={accountMessages.profileUsername} />
      </Form.Item>
      <Form.Item name="nickname" label={accountMessages.profileNickname} rules={rules.nickname}>
        <Input aria-label={accountMessages.profileNickname} maxLength={LIMITS.nicknameMax} />
      </Form.Item>
      <Form.Item
        name="birthday"
        label={accountMessages.profileBirthday}
        rules={rules.birthday}
        getValueProps={(v: string) => ({ value: v ? dayjs(v, DATE_FORMAT) : undefined })}
        normalize={(d: Dayjs | null) => (d ? d.format(DATE_FORMAT) : '')}
      >
        <DatePicker
          aria-label={accountMessages.profileBirthday}
          format={DATE_FORMAT}
          style={{ width: '100%' }}
          disabledDate={(d) => d.format(DATE_FORMAT) > latestBirthday()}
        />
      </Form.Item>
      <Form.Item name="industry" label={accountMessages.profileIndustry} rules={rules.industry}>
        <Select aria-label={accountMessages.profileIndustry} placeholder={accountMessages.industryPlaceholder} options={INDUSTRY_OPTIONS} showSearch={{ optionFilterProp: 'label' }} />
      </Form.Item>
      <Form.Item name="occupation" label={accountMessages.profileOccupation} rules={rules.occupation}>
        <Input aria-label={accountMessages.profileOccupation} maxLength={LIMITS.occupationMax} />
      </Form.Item>
      <Form.Item name="sign" label={accountMessages.profileSign} rules={rules.sign} extra={accountMessages.profileSignHint}>
        <Input aria-label={accountMessages.profileSign} maxLength={LIMITS.signMax} />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={busy}>
        {BM.save}
      </Button>
    </Form>
  );
}
