import { countryChoices, type Treatment, treatmentChoices, treatments } from '../../../../contracts/origin';
import { SelectField } from '../../../components/ui/select-field';

const countries = countryChoices();
const countryLabels = Object.fromEntries(countries.map((country) => [country.code, country.name]));

interface OriginFieldsProps {
  values: { originCountry: string; treatment: Treatment | '' };
  errors: Record<string, string | undefined>;
  onChange: (next: { originCountry?: string; treatment?: Treatment | '' }) => void;
}

/** Where a batch's boxes were grown and how treated, starting from what its product says. */
export function OriginFields({ values, errors, onChange }: OriginFieldsProps) {
  return (
    <div className="grid gap-3 sm:grid-cols-2">
      <SelectField
        label="Country of origin"
        placeholder="As the product says"
        options={countries.map((country) => country.code)}
        labels={countryLabels}
        value={values.originCountry}
        onChange={(event) => onChange({ originCountry: event.target.value })}
        error={errors.originCountry}
      />
      <SelectField
        label="Treatment after harvest"
        placeholder="As the product says"
        options={treatments}
        labels={treatmentChoices}
        value={values.treatment}
        onChange={(event) => onChange({ treatment: event.target.value as Treatment | '' })}
        error={errors.treatment}
      />
    </div>
  );
}
