import { BM, LIMITS } from '@hublink/contract';
import { Select, type SelectProps } from 'antd';

/** Country and region dial codes offered for phones; 86 first (spec 1 §9: default 86). */
export const AREA_CODES: { code: string; name: string }[] = [
  { code: LIMITS.defaultAreaCode, name: BM.areaMainland },
  { code: '852', name: BM.areaHongKong },
  { code: '853', name: BM.areaMacau },
  { code: '886', name: BM.areaTaiwan },
  { code: '1', name: BM.areaUsCanada },
  { code: '44', name: BM.areaUk },
  { code: '49', name: BM.areaGermany },
  { code: '33', name: BM.areaFrance },
  { code: '7', name: BM.areaRussia },
  { code: '81', name: BM.areaJapan },
  { code: '82', name: BM.areaKorea },
  { code: '65', name: BM.areaSingapore },
  { code: '60', name: BM.areaMalaysia },
  { code: '66', name: BM.areaThailand },
  { code: '84', name: BM.areaVietnam },
  { code: '62', name: BM.areaIndonesia },
  { code: '63', name: BM.areaPhilippines },
  { code: '91', name: BM.areaIndia },
  { code: '971', name: BM.areaUae },
  { code: '61', name: BM.areaAustralia },
];

const OPTIONS = AREA_CODES.map((a) => ({ value: a.code, label: `+${a.code}`, title: a.name, search: `${a.code} ${a.name}` }));
const SELECT_WIDTH = 110;

/** The dial-code select in front of a phone input (value is the code without '+', e.g. '86'). */
export function AreaCodeSelect(props: Omit<SelectProps<string>, 'options'>) {
  return (
    <Select<string>
      showSearch={{ optionFilterProp: 'search' }}
      popupMatchSelectWidth={false}
      style={{ width: SELECT_WIDTH }}
      aria-label={BM.areaCodeLabel}
      optionRender={(o) => `${o.data.title} +${o.data.value}`}
      {...props}
      options={OPTIONS}
    />
  );
}
