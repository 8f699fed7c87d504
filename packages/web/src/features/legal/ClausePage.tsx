import { M } from '@hublink/contract';
import { Link } from 'react-router';
import { withLinks } from '../../components/withLinks';
import { LegalDocument, type LegalSection } from './LegalDocument';

const INTRO = [
  M.clauseIntro1,
  M.clauseIntro2,
];

const SECTIONS: LegalSection[] = [
  {
    title: M.clauseSection1,
    clauses: [
      M.clauseSection1Item1,
      M.clauseSection1Item2,
      M.clauseSection1Item3,
    ],
  },
  {
    title: M.clauseSection2,
    clauses: [
      M.clauseSection2Item1,
      M.clauseSection2Item2,
      M.clauseSection2Item3,
      M.clauseSection2Item4,
      M.clauseSection2Item5,
    ],
  },
  {
    title: M.clauseSection3,
    clauses: [
      M.clauseSection3Item1,
      M.clauseSection3Item2,
      M.clauseSection3Item3,
    ],
  },
  {
    title: M.clauseSection4,
    clauses: [
      M.clauseSection4Item1,
      M.clauseSection4Item2,
      M.clauseSection4Item3,
      M.clauseSection4Item4,
    ],
  },
  {
    title: M.clauseSection5,
    clauses: [
      M.clauseSection5Item1,
      M.clauseSection5Item2,
      M.clauseSection5Item3,
      M.clauseSection5Item4,
      M.clauseSection5Item5,
    ],
  },
  {
    title: M.clauseSection6,
    clauses: [
      M.clauseSection6Item1,
      M.clauseSection6Item2,
      M.clauseSection6Item3,
      M.clauseSection6Item4,
    ],
  },
  {
    title: M.clauseSection7,
    clauses: [
      M.clauseSection7Item1,
      M.clauseSection7Item2,
      M.clauseSection7Item3,
    ],
  },
  {
    title: M.clauseSection8,
    clauses: [
      M.clauseSection8Item1,
      M.clauseSection8Item2,
      M.clauseSection8Item3,
      M.clauseSection8Item4,
    ],
  },
  {
    title: M.clauseSection9,
    clauses: [
      M.clauseSection9Item1,
      M.clauseSection9Item2,
      M.clauseSection9Item3,
    ],
  },
  {
    title: M.clauseSection10,
    clauses: [
      M.clauseSection10Item1,
      M.clauseSection10Item2,
      M.clauseSection10Item3,
    ],
  },
  {
    title: M.clauseSection11,
    clauses: [
      M.clauseSection11Item1,
      withLinks(M.clauseSection11Item2, { privacy: <Link to="/privacy">{M.legalPrivacyLink}</Link> }),
    ],
  },
  {
    title: M.clauseSection12,
    clauses: [
      M.clauseSection12Item1,
      M.clauseSection12Item2,
    ],
  },
  {
    title: M.clauseSection13,
    clauses: [
      M.clauseSection13Item1,
      M.clauseSection13Item2,
      M.clauseSection13Item3,
    ],
  },
];

/** /clause: the terms of service (spec 1 §2.12, §9). */
export default function ClausePage() {
  return <LegalDocument title={M.clauseTitle} intro={INTRO} sections={SECTIONS} />;
}
