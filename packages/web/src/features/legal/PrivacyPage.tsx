import { fmt, legalMessages } from '@hublink/contract';
import { Space } from 'antd';
import { Link } from 'react-router';
import { withLinks } from '../../components/withLinks';
import { LegalDocument, type LegalSection } from './LegalDocument';

/** The date the policy was last updated and took effect (spec 1 §2.12). */
export const PRIVACY_POLICY_DATE = legalMessages.privacyPolicyDate;

const INTRO = [
  legalMessages.privacyIntro1,
  withLinks(legalMessages.privacyIntro2, { clause: <Link to="/clause">{legalMessages.legalClauseLink}</Link> }),
];

const SECTIONS: LegalSection[] = [
  {
    title: legalMessages.privacySection1,
    clauses: [
      legalMessages.privacySection1Item1,
      legalMessages.privacySection1Item2,
      legalMessages.privacySection1Item3,
      legalMessages.privacySection1Item4,
      legalMessages.privacySection1Item5,
      legalMessages.privacySection1Item6,
    ],
  },
  {
    title: legalMessages.privacySection2,
    clauses: [
      legalMessages.privacySection2Item1,
      legalMessages.privacySection2Item2,
      legalMessages.privacySection2Item3,
      legalMessages.privacySection2Item4,
      legalMessages.privacySection2Item5,
      legalMessages.privacySection2Item6,
    ],
  },
  {
    title: legalMessages.privacySection3,
    clauses: [
      legalMessages.privacySection3Item1,
      legalMessages.privacySection3Item2,
      legalMessages.privacySection3Item3,
    ],
  },
  {
    title: legalMessages.privacySection4,
    clauses: [
      legalMessages.privacySection4Item1,
      legalMessages.privacySection4Item2,
      legalMessages.privacySection4Item3,
    ],
  },
  {
    title: legalMessages.privacySection5,
    clauses: [
      legalMessages.privacySection5Item1,
      legalMessages.privacySection5Item2,
      legalMessages.privacySection5Item3,
    ],
  },
  {
    title: legalMessages.privacySection6,
    clauses: [
      legalMessages.privacySection6Item1,
      legalMessages.privacySection6Item2,
    ],
  },
  {
    title: legalMessages.privacySection7,
    clauses: [
      legalMessages.privacySection7Item1,
      legalMessages.privacySection7Item2,
      legalMessages.privacySection7Item3,
      legalMessages.privacySection7Item4,
      legalMessages.privacySection7Item5,
      legalMessages.privacySection7Item6,
    ],
  },
  {
    title: legalMessages.privacySection8,
    clauses: [
      legalMessages.privacySection8Item1,
      legalMessages.privacySection8Item2,
    ],
  },
  {
    title: legalMessages.privacySection9,
    clauses: [
      legalMessages.privacySection9Item1,
    ],
  },
];

/** /privacy: the privacy policy (spec 1 §2.12, §9), dated 2021-03-23. */
export default function PrivacyPage() {
  return (
    <LegalDocument
      title={legalMessages.privacyTitle}
      meta={
        <Space size="large" wrap>
          <span>{fmt(legalMessages.privacyUpdated, { date: PRIVACY_POLICY_DATE })}</span>
          <span>{fmt(legalMessages.privacyEffective, { date: PRIVACY_POLICY_DATE })}</span>
        </Space>
      }
      intro={INTRO}
      sections={SECTIONS}
    />
  );
}
