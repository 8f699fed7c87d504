import { fmt, M } from '@hublink/contract';
import { Space } from 'antd';
import { Link } from 'react-router';
import { withLinks } from '../../components/withLinks';
import { LegalDocument, type LegalSection } from './LegalDocument';

/** The date the policy was last updated and took effect (spec 1 §2.12). */
export const PRIVACY_POLICY_DATE = M.privacyPolicyDate;

const INTRO = [
  M.privacyIntro1,
  withLinks(M.privacyIntro2, { clause: <Link to="/clause">{M.legalClauseLink}</Link> }),
];

const SECTIONS: LegalSection[] = [
  {
    title: M.privacySection1,
    clauses: [
      M.privacySection1Item1,
      M.privacySection1Item2,
      M.privacySection1Item3,
      M.privacySection1Item4,
      M.privacySection1Item5,
      M.privacySection1Item6,
    ],
  },
  {
    title: M.privacySection2,
    clauses: [
      M.privacySection2Item1,
      M.privacySection2Item2,
      M.privacySection2Item3,
      M.privacySection2Item4,
      M.privacySection2Item5,
      M.privacySection2Item6,
    ],
  },
  {
    title: M.privacySection3,
    clauses: [
      M.privacySection3Item1,
      M.privacySection3Item2,
      M.privacySection3Item3,
    ],
  },
  {
    title: M.privacySection4,
    clauses: [
      M.privacySection4Item1,
      M.privacySection4Item2,
      M.privacySection4Item3,
    ],
  },
  {
    title: M.privacySection5,
    clauses: [
      M.privacySection5Item1,
      M.privacySection5Item2,
      M.privacySection5Item3,
    ],
  },
  {
    title: M.privacySection6,
    clauses: [
      M.privacySection6Item1,
      M.privacySection6Item2,
    ],
  },
  {
    title: M.privacySection7,
    clauses: [
      M.privacySection7Item1,
      M.privacySection7Item2,
      M.privacySection7Item3,
      M.privacySection7Item4,
      M.privacySection7Item5,
      M.privacySection7Item6,
    ],
  },
  {
    title: M.privacySection8,
    clauses: [
      M.privacySection8Item1,
      M.privacySection8Item2,
    ],
  },
  {
    title: M.privacySection9,
    clauses: [
      M.privacySection9Item1,
    ],
  },
];

/** /privacy: the privacy policy (spec 1 §2.12, §9), dated 2021-03-23. */
export default function PrivacyPage() {
  return (
    <LegalDocument
      title={M.privacyTitle}
      meta={
        <Space size="large" wrap>
          <span>{fmt(M.privacyUpdated, { date: PRIVACY_POLICY_DATE })}</span>
          <span>{fmt(M.privacyEffective, { date: PRIVACY_POLICY_DATE })}</span>
        </Space>
      }
      intro={INTRO}
      sections={SECTIONS}
    />
  );
}
