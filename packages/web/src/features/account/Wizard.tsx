import { BM, type BodyOf, CODE, type Endpoint } from '@hublink/contract';
import { Button, Flex, Result, Steps } from 'antd';
import { useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { call } from '../../api/client';
import { PageContainer } from '../../components/PageContainer';

/**
 * Step, busy state and submit of one account wizard: success goes to step 2 (after `onDone`), and an
 * identity proof that is missing or used up sends the user back to the verification step.
 */
export function useWizard<E extends Endpoint>(endpoint: E, onDone?: () => void) {
  const navigate = useNavigate();
  const [step, setStep] = useState(0);
  const [busy, setBusy] = useState(false);
  const submit = async (body: BodyOf<E>) => {
    if (busy) return;
    setBusy(true);
    const env = await call(endpoint, { body });
    setBusy(false);
    if (env.code === CODE.ok) {
      onDone?.();
      setStep(2);
    } else if (env.msg === BM.recoveryNotVerified) setStep(0);
  };
  return { step, setStep, busy, submit, toAccount: () => void navigate('/account') };
}

/** Return (to /account) and submit, under the input step's form. */
export function WizardActions({ busy, onBack }: { busy: boolean; onBack: () => void }) {
  return (
    <Flex gap={8}>
      <Button onClick={onBack}>{BM.back}</Button>
      <Button type="primary" htmlType="submit" loading={busy}>
        {BM.confirmChange}
      </Button>
    </Flex>
  );
}

/** The frame of the three-step account wizards (spec 1 §4: step 0 verify, 1 input, 2 success). */
export function Wizard({ step, titles, children }: { step: number; titles: [string, string, string]; children: ReactNode }) {
  return (
    <PageContainer>
      <Steps current={step} items={titles.map((title) => ({ title }))} size="small" style={{ maxWidth: 640, marginBottom: 32 }} />
      {children}
    </PageContainer>
  );
}

/** The success step: the title and a return button. */
export function DoneStep({ title, onBack, extra }: { title: string; onBack: () => void; extra?: ReactNode }) {
  return (
    <Result
      status="success"
      title={title}
      extra={[
        <Button key="back" onClick={onBack}>
          {BM.back}
        </Button>,
        extra,
      ]}
    />
  );
}
