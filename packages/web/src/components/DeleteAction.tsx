import { BM } from '@hublink/contract';
import { Button, Popconfirm } from 'antd';

export interface DeleteActionProps {
  /** The delete call; Popconfirm keeps its OK button loading until the returned promise settles. */
  onConfirm: () => Promise<unknown>;
  /** The button text, from the area's own message ('删除'). */
  label: string;
}

/** The row action of a list: a danger link button that asks '是否确定删除?' before it deletes. */
export function DeleteAction({ onConfirm, label }: DeleteActionProps) {
  return (
    <Popconfirm title={BM.confirmDelete} onConfirm={onConfirm}>
      <Button type="link" size="small" danger>
        {label}
      </Button>
    </Popconfirm>
  );
}
