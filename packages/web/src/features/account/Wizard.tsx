import { Button, Result, Steps } from 'antd';
import type { ReactNode } from 'react';
import { PageContainer } from '../../components/PageContainer';

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
          返回
        </Button>,
        extra,
      ]}
    />
  );
}
