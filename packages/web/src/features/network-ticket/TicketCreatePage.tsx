import { CODE, createTicket, fmt, networkMessages, networkTicketMessages, type PopRegion, TICKET_LIMITS, TICKET_TYPE_ACCESS_POP, ticketConfig } from '@hublink/contract';
import { Button, Card, Flex, Result, Steps } from 'antd';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { useApiQuery } from '../../api/hooks';
import { PageContainer } from '../../components/PageContainer';
import { useTicketMutation } from './api';
import { popConfOf, type Assignment } from './assignment';
import { ConfigStep, type ConfigValues } from './ConfigStep';
import { MembersStep } from './MembersStep';
import { SummaryStep } from './SummaryStep';
import { useGoBack } from './useGoBack';

const STEPS = [{ title: networkTicketMessages.ticketStepConfig }, { title: networkTicketMessages.ticketStepMembers }, { title: networkTicketMessages.ticketStepSubmit }];

/**
 * /network/ticket_create?network_number: the access-POP ticket wizard (spec 2 §2) in its own layout —
 * choose the configuration, assign members to the regions, submit.
 */
export default function TicketCreatePage() {
  const [params] = useSearchParams();
  const networkNumber = params.get('network_number') ?? '';
  const config = useApiQuery(ticketConfig, { type: TICKET_TYPE_ACCESS_POP, network_number: networkNumber }, { enabled: networkNumber !== '' });
  const submit = useTicketMutation(createTicket);
  const goBack = useGoBack();
  const [step, setStep] = useState(0);
  const [values, setValues] = useState<ConfigValues | null>(null);
  const [assignment, setAssignment] = useState<Assignment>({});
  const [active, setActive] = useState('');
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const data = config.data?.data;
  useEffect(() => {
    if (!data || values) return;
    const first = data.ticket.pop[0];
    const years = data.ticket.expired_time[0];
    if (first && years) setValues({ regions: [first.value], years: years.value, bandwidth: data.ticket.bandwidth.min });
  }, [data, values]);

  const back = (
    <Button onClick={goBack} disabled={submit.isPending}>
      {networkTicketMessages.ticketBack}
    </Button>
  );
  const header = (content: ReactNode, loading = false) => (
    <PageContainer extra={back} loading={loading} description={networkNumber && fmt(networkTicketMessages.ticketWizardNetwork, { n: networkNumber })}>
      {content}
    </PageContainer>
  );

  if (config.isLoading) return header(null, true);
  if (!data) return header(<Result status="warning" title={config.error?.message ?? networkMessages.networkNotFound} />);
  if (data.ticket.pop.length === 0 || data.ticket.expired_time.length === 0 || !values) return header(<Result status="warning" title={networkTicketMessages.ticketNotBuyable} />);

  const members = data.member.map((m) => m.router_name);
  const toMembers = () => {
    // Step 1 → 2 starts over: every member in the pool, the first region's tab open.
    setAssignment({});
    setActive(values.regions[0]!);
    setStep(1);
  };
  const send = async () => {
    const env = await submit.mutateAsync({
      network_number: networkNumber,
      network_ticket_type: TICKET_TYPE_ACCESS_POP,
      ticket: { pop: values.regions as PopRegion[], expired_time: values.years, bandwidth: TICKET_LIMITS.submittedBandwidth },
      pop_conf: popConfOf(values.regions, assignment) as Partial<Record<PopRegion, string[]>>,
    });
    if (env.code === CODE.ok) timer.current = setTimeout(goBack, TICKET_LIMITS.redirectMs);
  };

  const buttons = [
    <Button key="next" type="primary" onClick={toMembers}>
      {networkTicketMessages.ticketNext}
    </Button>,
    <Flex key="members" gap={8}>
      <Button onClick={() => setStep(0)}>{networkTicketMessages.ticketPrev}</Button>
      <Button type="primary" onClick={() => setStep(2)}>
        {networkTicketMessages.ticketNext}
      </Button>
    </Flex>,
    <Flex key="submit" gap={8}>
      <Button
        disabled={submit.isPending}
        onClick={() => {
          // Previous from the summary puts every assigned member back into the pool (spec 2 §2).
          setAssignment({});
          setStep(1);
        }}
      >
        {networkTicketMessages.ticketPrev}
      </Button>
      <Button type="primary" loading={submit.isPending} onClick={() => void send()}>
        {networkTicketMessages.ticketSubmit}
      </Button>
    </Flex>,
  ];

  return header(
    <Flex vertical gap={24}>
      <Steps current={step} items={STEPS} responsive />
      <Card variant="outlined" size="small">
        {step === 0 && <ConfigStep config={data.ticket} choices={TICKET_LIMITS.bandwidths} values={values} onChange={setValues} />}
        {step === 1 && (
          <MembersStep regions={values.regions} members={members} assignment={assignment} active={active} onActive={setActive} onChange={setAssignment} />
        )}
        {step === 2 && (
          <SummaryStep networkNumber={networkNumber} regions={values.regions} years={values.years} bandwidth={TICKET_LIMITS.submittedBandwidth} assignment={assignment} />
        )}
      </Card>
      <Flex justify="center">{buttons[step]}</Flex>
    </Flex>,
  );
}
